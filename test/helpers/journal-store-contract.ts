/**
 * The journal store contract as a reusable suite: every {@link JournalStore} (the file journal,
 * the Redis one, a partner's own) runs it.
 *
 * ```ts
 * describeJournalStoreContract('FileJournal', async () => {
 *   const path = join(await mkdtemp(join(tmpdir(), 'journal-')), 'j.jsonl');
 *   return { open: () => FileJournal.open(path) };
 * });
 * ```
 */

import { JournalMismatchError, type JournalRecord, type JournalStore } from 'partner-sdk/bulk';
import { afterEach, describe, expect, it } from 'vitest';

/** One empty storage place (a file, a Redis key prefix…) that stores can be opened on, again and again. */
export interface JournalStorage {
  /** Opens a store over this storage; a second open sees what the first one put. */
  open(): Promise<JournalStore>;
  /** Removes the storage after the test. */
  cleanup?(): Promise<void>;
}

const at = (ms = 0) => new Date(Date.UTC(2026, 10, 23, 12, 0, 0, ms)).toISOString();

const intent = (job: string, key: string, ms = 0): JournalRecord => ({
  job,
  key,
  state: 'intent',
  at: at(ms),
  since: at(ms),
});

/**
 * Declares the contract's tests for the store that `makeStorage` opens. Each test gets a fresh,
 * empty storage.
 */
export function describeJournalStoreContract(
  name: string,
  makeStorage: () => Promise<JournalStorage>,
): void {
  describe(`${name} keeps the journal store contract`, () => {
    const opened: JournalStore[] = [];
    const storages: JournalStorage[] = [];
    const fresh = async () => {
      const storage = await makeStorage();
      storages.push(storage);
      return storage;
    };
    const openOn = async (storage: JournalStorage) => {
      const store = await storage.open();
      opened.push(store);
      return store;
    };

    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close().catch(() => {});
      for (const storage of storages.splice(0)) await storage.cleanup?.();
    });

    it('answers undefined for a key it never stored', async () => {
      const store = await openOn(await fresh());
      expect(await store.get('job-1', 'trx_unknown')).toBeUndefined();
    });

    it('gives back the record put, field for field, for any key', async () => {
      const store = await openOn(await fresh());
      const keys = ['trx_1', 'prd 1/off:2', '__proto__', 'constructor', 'ção ✓ 𝄞', 'a\nb"c\\'];
      const records = keys.map(
        (key, i): JournalRecord => ({
          job: 'job-1',
          key,
          state: 'succeeded',
          at: at(i),
          detail: { refund: `rfd_${i}`, nested: { list: [1, 'two', null] } },
        }),
      );
      for (const record of records) await store.put(record);
      for (const record of records) {
        expect(await store.get('job-1', record.key)).toEqual(record);
      }
      expect(Object.getPrototypeOf(await store.get('job-1', '__proto__'))).toBe(Object.prototype);
    });

    it('answers with the last record put for a key', async () => {
      const store = await openOn(await fresh());
      await store.put(intent('job-1', 'trx_1', 1));
      await store.put({
        job: 'job-1',
        key: 'trx_1',
        state: 'failed',
        at: at(2),
        detail: { error: 'x' },
      });
      await store.put(intent('job-1', 'trx_1', 3));
      const done: JournalRecord = { job: 'job-1', key: 'trx_1', state: 'existing', at: at(4) };
      await store.put(done);
      expect(await store.get('job-1', 'trx_1')).toEqual(done);
    });

    it('keeps every record of many concurrent puts', async () => {
      const store = await openOn(await fresh());
      const keys = Array.from({ length: 300 }, (_, i) => `trx_${i}`);
      await Promise.all(keys.map((key, i) => store.put(intent('job-1', key, i))));
      const back = await Promise.all(keys.map((key) => store.get('job-1', key)));
      expect(back).toEqual(keys.map((key, i) => intent('job-1', key, i)));
    });

    it('keeps what was put across a close and a new open', async () => {
      const storage = await fresh();
      const first = await openOn(storage);
      await first.put(intent('job-1', 'trx_1'));
      await first.put({
        job: 'job-1',
        key: 'trx_2',
        state: 'succeeded',
        at: at(),
        detail: { n: 1 },
      });
      await first.close();
      const second = await openOn(storage);
      expect(await second.get('job-1', 'trx_1')).toEqual(intent('job-1', 'trx_1'));
      expect(await second.get('job-1', 'trx_2')).toEqual({
        job: 'job-1',
        key: 'trx_2',
        state: 'succeeded',
        at: at(),
        detail: { n: 1 },
      });
    });

    it('finishes pending puts before close resolves', async () => {
      const storage = await fresh();
      const first = await openOn(storage);
      const puts = Array.from({ length: 50 }, (_, i) => first.put(intent('job-1', `k${i}`, i)));
      await first.close();
      await Promise.all(puts);
      const second = await openOn(storage);
      for (let i = 0; i < 50; i++) {
        expect(await second.get('job-1', `k${i}`)).toEqual(intent('job-1', `k${i}`, i));
      }
    });

    it("never answers one job with another job's record", async () => {
      const store = await openOn(await fresh());
      await store.put(intent('job-a', 'trx_1'));
      const other = await store.get('job-b', 'trx_1').then(
        (record) => ({ record }),
        (error: unknown) => ({ error }),
      );
      if ('error' in other) expect(other.error).toBeInstanceOf(JournalMismatchError);
      else expect(other.record).toBeUndefined();
      expect(await store.get('job-a', 'trx_1')).toEqual(intent('job-a', 'trx_1'));
    });

    it('hands out copies: changing a record read back changes nothing stored', async () => {
      const store = await openOn(await fresh());
      const record: JournalRecord = { ...intent('job-1', 'trx_1'), detail: { a: 1 } };
      await store.put(record);
      record.state = 'failed';
      const read = await store.get('job-1', 'trx_1');
      read!.state = 'succeeded';
      (read!.detail as { a: number }).a = 2;
      expect(await store.get('job-1', 'trx_1')).toEqual({
        ...intent('job-1', 'trx_1'),
        detail: { a: 1 },
      });
    });

    it('rejects calls after close', async () => {
      const store = await openOn(await fresh());
      await store.close();
      await expect(store.get('job-1', 'trx_1')).rejects.toThrow();
      await expect(store.put(intent('job-1', 'trx_1'))).rejects.toThrow();
    });
  });
}
