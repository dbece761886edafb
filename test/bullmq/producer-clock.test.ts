/**
 * `refundProcessor` reconciles a job run again from when the job was enqueued, and BullMQ writes
 * that time (`job.timestamp`) on the PRODUCER's clock, which may run ahead of the worker's and the
 * service's. Here the producer runs ahead; the first run's refund has since completed (no longer
 * active, so only its time tells it is the job's). The search reaches back the documented skew
 * bound (`reconciliation.maxClockSkewMs`) from that time, so the refund is found, never made a
 * second time; and a refund older than that bound before the job is not taken as the job's.
 */

import { type ProcessorJob, type RefundJobData, refundProcessor } from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';

const queue = { rateLimit: async () => {} };

/** The kit, its seller (with `maxClockSkewMs`, when given) and a transaction refunded and completed. */
async function refundedBefore(maxClockSkewMs?: number) {
  const assumptions = maxClockSkewMs === undefined ? {} : { reconciliation: { maxClockSkewMs } };
  const { mock, seller } = kitClients(createMockPartnerApi({ refundPolls: 0 }), { assumptions });
  const hash = mock.addTransaction();
  expect((await seller.refunds.request(hash)).kind).toBe('accepted');
  expect((await seller.refunds.waitForCompletion(hash, { interval: 1 })).status).toBe('completed');
  return { mock, seller, hash, posts: () => refundPostsTo(mock, hash) };
}

/** The job as BullMQ hands it to a worker taking it over, enqueued by a producer `aheadMs` fast. */
const takenOver = (transactionHash: string, aheadMs: number): ProcessorJob<RefundJobData> => ({
  id: `refund-request/${transactionHash}`,
  data: { transactionHash },
  timestamp: Date.now() + aheadMs,
  attemptsMade: 0,
  attemptsStarted: 2,
});

describe("refundProcessor and the producer's clock", () => {
  it.each([
    ['1 minute', 60_000],
    ['10 minutes', 10 * 60_000],
  ])(
    'a job taken over finds the refund its first run made with the producer %s ahead',
    async (_what, aheadMs) => {
      const { seller, hash, posts } = await refundedBefore();
      const again = await refundProcessor(seller, { queue })(takenOver(hash, aheadMs));
      expect(again).toMatchObject({ status: 'succeeded', reconciled: true });
      expect(again.result).toMatchObject({ status: 'completed' });
      expect(posts()).toBe(1);
    },
  );

  it('a refund made longer before the job than maxClockSkewMs is not taken as the job’s', async () => {
    const { seller, hash, posts } = await refundedBefore(60_000);
    const again = await refundProcessor(seller, { queue })(takenOver(hash, 2 * 60_000));
    expect(again).toMatchObject({ status: 'succeeded', reconciled: false });
    expect(posts()).toBe(2);
  });
});
