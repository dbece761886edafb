/**
 * A service that writes every refund's `amount` as a decimal string (`"50.00"`, as a Laravel
 * `decimal` cast does), where spec §2.9 gives a number: its 200 to a refund request (an active
 * refund exists, none made) and its list of refunds are both answers the SDK cannot read. The
 * job's outcome for such an item, and its journal, must never lead a resume (even with
 * `retryFailed`, after the refund completed) to request a second refund.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileJournal, requestRefunds } from 'partner-sdk/bulk';
import { afterEach, describe, expect, it } from 'vitest';
import { refundPostsTo } from '../helpers/kit-clients';
import { activeRefundBehindStringAmounts } from '../helpers/unreadable-amounts';
import { collect } from './support';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function journal(): Promise<FileJournal> {
  const dir = await mkdtemp(join(tmpdir(), 'partner-bulk-amounts-'));
  closers.push(() => rm(dir, { recursive: true, force: true }));
  return FileJournal.open(join(dir, 'job.jsonl'));
}

describe('requestRefunds against a service sending amounts as strings', () => {
  it.each([false, true])(
    'with unlessRefunded %s, fails the item of an active refund; resumed, with retryFailed or not, once that refund completed, it requests none',
    async (unlessRefunded) => {
      // The refund completes while the 200 naming it (active then) is on its way.
      const { mock, hash, seller, honest } = await activeRefundBehindStringAmounts();
      const store = await journal();
      const options = { journal: { store, job: 'amounts' }, unlessRefunded };
      const first = await collect(requestRefunds(seller, [hash], options));
      // Without the guard the request went out and its 200 is unreadable: in doubt. With it, the
      // guard's read of the refunds is unreadable, and nothing was sent.
      expect(first).toEqual([
        expect.objectContaining({
          status: 'failed',
          error: expect.objectContaining({ name: 'ResponseValidationError', status: 200 }),
        }),
      ]);
      expect(first[0]).toMatchObject({
        error: {
          message: expect.stringMatching(
            /data(\.0)?\.amount: expected a number, received a string/,
          ),
        },
      });
      const posts = unlessRefunded ? 1 : 2;
      expect(refundPostsTo(mock, hash)).toBe(posts);
      if (!unlessRefunded) {
        expect(first[0]).toMatchObject({ inDoubt: true });
        expect(await requestRefunds(seller, [hash], options)).toMatchObject({ skipped: 1 });
      }
      const resumed = await requestRefunds(seller, [hash], { ...options, retryFailed: true });
      await store.close();
      expect(resumed).toMatchObject({ failed: 1, succeeded: 0 });
      expect(refundPostsTo(mock, hash)).toBe(posts);
      expect(await honest.refunds.list(hash)).toHaveLength(1);
    },
  );
});
