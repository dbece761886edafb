/**
 * The `journal` option is `{ store, job }`. Given a store on its own (plain JavaScript, or a cast),
 * or an empty job id (an unset environment variable), `runBulk` throws a RequestValidationError
 * naming what is missing, before any item is read or sent: a job it started would fail on its
 * first item with a bare TypeError from deep inside, or run under the id `""`.
 */

import { RequestValidationError } from 'partner-sdk';
import { type JournalStore, runBulk } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';

const store: JournalStore = {
  get: async () => undefined,
  put: async () => {},
  close: async () => {},
};

function refused(journal: unknown): RequestValidationError {
  let read = 0;
  const items = (function* () {
    read++;
    yield 'a';
  })();
  try {
    runBulk(items, { key: (item) => item, run: async () => 'sent' }, { journal: journal as never });
  } catch (error) {
    expect(read).toBe(0);
    expect(error).toBeInstanceOf(RequestValidationError);
    return error as RequestValidationError;
  }
  throw new Error('runBulk accepted the journal option');
}

describe('the journal option', () => {
  it('refuses a store given without { store, job }, naming the shape it takes', () => {
    const error = refused(store);
    expect(error.issues).toEqual([
      expect.objectContaining({
        path: ['journal', 'store'],
        message: 'expected a JournalStore: pass { store, job }',
      }),
    ]);
  });

  it('refuses a store without get or put', () => {
    expect(refused({ store: { get: store.get }, job: 'cohort' }).issues[0]?.path).toEqual([
      'journal',
      'store',
    ]);
  });

  it('refuses an empty or missing job id', () => {
    for (const job of ['', undefined, 7]) {
      const error = refused({ store, job });
      expect(error.issues[0]).toMatchObject({
        path: ['journal', 'job'],
        message: 'expected a non-empty job id',
      });
    }
  });

  it('takes { store, job } and records each item under the job', async () => {
    const records: unknown[] = [];
    const job = runBulk(
      ['a', 'b'],
      { key: (item) => item, run: async () => 'sent' },
      {
        journal: {
          store: { ...store, put: async (record) => void records.push(record) },
          job: 'cohort',
        },
      },
    );
    expect((await job).succeeded).toBe(2);
    expect(records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ job: 'cohort', key: 'a', state: 'succeeded' }),
      ]),
    );
  });
});
