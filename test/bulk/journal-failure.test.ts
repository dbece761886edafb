/**
 * A journal that can no longer be written (disk full, a read-only volume, Redis gone) stops the
 * job: it rejects with the store's own error, whether the intent or the outcome write failed, and
 * no request goes out without its intent recorded first.
 */

import { type JournalRecord, type JournalStore, requestRefunds } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { collect, setup } from './support';

/** A store that takes `room` records, then fails every write as a full disk does. */
function fillingStore(room: number) {
  const records: JournalRecord[] = [];
  const full = Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC',
    syscall: 'write',
  });
  const store: JournalStore = {
    get: async () => undefined,
    put: async (record) => {
      if (records.length >= room) throw full;
      records.push(record);
    },
    close: async () => {},
  };
  return { store, records, full };
}

describe('a bulk job whose journal fills up', () => {
  // Room for 2 intents + 2 outcomes, then an intent fails (room 4), or an outcome fails (room 5:
  // with concurrency 1 the fifth record is the third item's outcome after its intent).
  for (const [room, which] of [
    [4, 'an intent'],
    [5, 'an outcome'],
  ] as const) {
    it(`rejects with the store's error when ${which} cannot be written, having sent nothing unrecorded`, async () => {
      const { mock, seller, refundPosts } = setup();
      const items = Array.from({ length: 10 }, () => mock.addTransaction(100));
      const { store, records, full } = fillingStore(room);
      const job = requestRefunds(seller, items, {
        concurrency: 1,
        journal: { store, job: 'cohort' },
      });
      await expect(collect(job)).rejects.toBe(full);
      await expect(Promise.resolve(job)).rejects.toBe(full);
      const intents = new Set(records.filter((r) => r.state === 'intent').map((r) => r.key));
      for (const hash of items) {
        expect(refundPosts(hash), hash).toBe(intents.has(hash) ? 1 : 0);
      }
    });
  }
});
