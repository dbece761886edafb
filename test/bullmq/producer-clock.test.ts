/**
 * `refundProcessor` reconciles a job run again from when the job was enqueued, and BullMQ writes
 * that time (`job.timestamp`) on the PRODUCER's clock, which may run ahead of the worker's and the
 * service's. Here the producer runs ahead; the first run's refund has since completed (no longer
 * active, so only its time tells it is the job's). The search reaches back the documented skew
 * bound (`reconciliation.maxClockSkewMs`) from that time, so the refund is found, never made a
 * second time; and a refund older than that bound before the job is not taken as the job's. The
 * processor is called as BullMQ calls it, then run by a real BullMQ worker on a real redis-server,
 * the job enqueued with the timestamp a fast producer writes and its first answer lost.
 */

import type { Job } from 'bullmq';
import { PartnerClient } from 'partner-sdk';
import {
  enqueueRefunds,
  type ProcessorJob,
  type QueueJobResult,
  type RefundJobData,
  refundProcessor,
} from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { useBullmq } from '../helpers/bullmq-queues';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';
import { withTimeout } from '../helpers/waits';
import { serveKit } from './kit-server';

const queue = { rateLimit: async () => {} };
const bullmq = useBullmq();

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

describe("refundProcessor and the producer's clock, on a real redis-server", () => {
  it('a job whose answer was lost, enqueued by a producer 1 minute ahead, finds on its retry the refund since completed', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const hash = mock.addTransaction();
    // The kit on loopback, cutting the connection after it made the refund: the answer is lost.
    const { url, server } = await serveKit(mock, new Set([hash]));
    bullmq.onCleanup(async () => {
      server.closeAllConnections();
      server.close();
    });
    const { clientToken } = mock.credentials;
    const seller = new PartnerClient({ baseUrl: url, clientToken, logLevel: 'off' }).forUser(
      mock.sellers.person.publicToken,
    );
    const jobs = bullmq.queue();
    const worker = bullmq.worker(jobs.name, refundProcessor(seller, { queue: jobs }));
    const failed = new Promise<Job>((resolve) => worker.once('failed', (job) => resolve(job!)));
    const completed = new Promise<QueueJobResult>((resolve) =>
      worker.once('completed', (_job, result: QueueJobResult) => resolve(result)),
    );
    // BullMQ writes the producer's Date.now() as the job's timestamp: this one's runs 1 minute
    // ahead. The back-off holds the retry until the test promotes it.
    const timestamp = Date.now() + 60_000;
    await enqueueRefunds(jobs, [{ transactionHash: hash }], {
      backoffMs: 3_600_000,
      jobOptions: { timestamp },
    });
    const first = await withTimeout(failed, 20_000, 'the first run to lose its answer');
    expect(first.timestamp).toBe(timestamp);
    // The refund the lost request made completes before the retry: no longer active.
    const { seller: reader } = kitClients(mock);
    expect((await reader.refunds.waitForCompletion(hash, { interval: 1 })).status).toBe(
      'completed',
    );
    await first.promote();
    const again = await withTimeout(completed, 20_000, 'the retry to end');
    expect(again).toMatchObject({ status: 'succeeded', reconciled: true });
    expect(refundPostsTo(mock, hash)).toBe(1);
  });
});
