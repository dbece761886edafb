/**
 * `refundProcessor` on a real redis-server, against a service that writes every refund's `amount`
 * as a decimal string (`"50.00"`, as a Laravel `decimal` cast does) where spec §2.9 gives a
 * number. A job's refund request answered 200 (an active refund exists) reaches the worker as a
 * `ResponseValidationError`; that refund completes meanwhile, so a blind repeat on the job's next
 * attempt would make a second one (spec §3). The job ends without one.
 */

import type { Job } from 'bullmq';
import { enqueueRefunds, type QueueJobResult, refundProcessor } from 'partner-sdk/bullmq';
import { describe, expect, it } from 'vitest';
import { useBullmq } from '../helpers/bullmq-queues';
import { refundPostsTo } from '../helpers/kit-clients';
import { activeRefundBehindStringAmounts } from '../helpers/unreadable-amounts';
import { withTimeout } from '../helpers/waits';

const bullmq = useBullmq();

type Ended = { state: 'completed'; result: QueueJobResult } | { state: 'failed'; job: Job };

describe('refundProcessor against a service sending amounts as strings', () => {
  it.each([false, true])(
    'with unlessRefunded %s, a job whose refund answers are unreadable fails without a second refund',
    async (unlessRefunded) => {
      // The refund completes while the 200 naming it (active then) is on its way.
      const { mock, hash, seller, honest } = await activeRefundBehindStringAmounts();
      const queue = bullmq.queue();
      const worker = bullmq.worker(queue.name, refundProcessor(seller, { queue, unlessRefunded }));
      const ended = new Promise<Ended>((resolve) => {
        worker.on('completed', (_job, result: QueueJobResult) =>
          resolve({ state: 'completed', result }),
        );
        worker.on('failed', (job) => {
          // A failure BullMQ will retry is not an end: only the last one is.
          if (job?.finishedOn) resolve({ state: 'failed', job });
        });
      });
      await enqueueRefunds(queue, [{ transactionHash: hash }], { backoffMs: 50 });
      const end = await withTimeout(ended, 20_000, 'the job to end');
      // Each attempt after the first reads the transaction's refunds before sending again (with
      // unlessRefunded, the first does too); that read is as unreadable, so none sends it again.
      expect(end.state).toBe('failed');
      const { job } = end as { job: Job };
      expect(job.failedReason).toContain('data.0.amount: expected a number, received a string');
      expect(refundPostsTo(mock, hash)).toBe(unlessRefunded ? 1 : 2);
      expect(await honest.refunds.list(hash)).toHaveLength(1);
    },
    60_000,
  );
});
