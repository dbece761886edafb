/**
 * `refundProcessor` on a real redis-server: a worker whose refund request reached the service dies
 * before its answer (its job stalls, its lease is no longer renewed), and a second worker takes the
 * job over, whose reads of the transaction's refunds then fail on every attempt. The dead run told
 * BullMQ nothing, so only what it left in Redis before sending can make the job's final
 * `failedReason` say that the refund may have been made.
 */

import type { Job } from 'bullmq';
import {
  enqueueRefunds,
  type ProcessorJob,
  type RefundJobData,
  refundProcessor,
} from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { useBullmq } from '../helpers/bullmq-queues';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';
import { waitFor, withTimeout } from '../helpers/waits';

const bullmq = useBullmq();

/**
 * A seller client over the kit whose refund request (POST) acts at the kit and then never answers
 * until `dead` is settled (the worker died waiting), and whose reads of the transaction's refunds
 * are all answered 503.
 */
function dyingAfterPost() {
  const mock = createMockPartnerApi({ refundPolls: 0 });
  const hash = mock.addTransaction(5000);
  let die: () => void = () => {};
  const dead = new Promise<never>((_, reject) => {
    die = () => reject(new TypeError('fetch failed: the worker died'));
  });
  dead.catch(() => {});
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    if (!new URL(request.url).pathname.endsWith(`/financial/refund/${hash}`)) {
      return mock.fetch(request);
    }
    if (request.method === 'GET') return new Response('Service Unavailable', { status: 503 });
    await mock.fetch(request);
    return dead;
  };
  const options = { clientToken: mock.credentials.clientToken, fetch, maxRetries: 0 };
  const { seller } = kitClients(mock, options);
  return { mock, hash, seller, die };
}

describe('refundProcessor: a stalled job whose dead run sent its refund request', () => {
  it('ends, once its checks failed until attempts ran out, saying the refund may have taken effect', async () => {
    const { mock, hash, seller, die } = dyingAfterPost();
    bullmq.onCleanup(async () => die());
    const queue = bullmq.queue();
    const leaseMs = 300;
    // Worker A's leases on a connection of their own, cut once its request went out: it renews
    // nothing more, as a dead worker would not.
    const redisOfA = bullmq.redis();
    const processorA = refundProcessor(seller, { queue, redis: redisOfA, leaseMs });
    bullmq.worker(queue.name, processorA, {
      lockDuration: 500,
      skipLockRenewal: true,
      skipStalledCheck: true,
    });
    await enqueueRefunds(queue, [{ transactionHash: hash }], { attempts: 2, backoffMs: 20 });
    await waitFor(() => refundPostsTo(mock, hash) === 1, 'worker A to send its refund', 20_000);
    redisOfA.disconnect();
    const processorB = refundProcessor(seller, { queue, redis: bullmq.redis(), leaseMs });
    const b = bullmq.worker(queue.name, processorB, { lockDuration: 5_000, stalledInterval: 200 });
    const failed = new Promise<Job>((resolve, reject) => {
      b.on('completed', () => reject(new Error('the job completed')));
      b.on('failed', (job) => {
        if (job?.finishedOn) resolve(job);
      });
    });
    const job = await withTimeout(failed, 30_000, 'the job to fail for good');
    expect(job.failedReason).toMatch(
      /^A refund request of this job may have taken effect \(.*\): read the transaction's refunds \(refunds\.findCreatedSince\) before enqueueing it again\. Last failure: /,
    );
    expect(job.failedReason).toContain('503');
    expect(refundPostsTo(mock, hash)).toBe(1);
    const honest = kitClients(mock, { clientToken: mock.credentials.clientToken }).seller;
    expect((await honest.refunds.list(hash)).length).toBe(1);
  }, 60_000);
});

/** Run `attemptsStarted` of the job of `hash` enqueued at `timestamp`, as BullMQ hands it over. */
const run = (hash: string, attemptsStarted: number, timestamp: number) =>
  ({
    id: `refund-request/${hash}`,
    data: { transactionHash: hash },
    timestamp,
    attemptsMade: 0,
    attemptsStarted,
  }) satisfies ProcessorJob<RefundJobData>;

describe('refundProcessor: the mark of a run that sent, run by run', () => {
  it("is its own job's: a job enqueued again under its id fails with its own reason alone", async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const hash = mock.addTransaction(5000);
    const { seller } = kitClients(mock, {
      clientToken: mock.credentials.clientToken,
      maxRetries: 0,
    });
    const queue = { rateLimit: async () => {}, getRateLimitTtl: async () => 0 };
    const processor = refundProcessor(seller, { queue, redis: bullmq.redis() });
    // The first run sends and its refund is made; its answer never reaches BullMQ (it stalled).
    await processor(run(hash, 1, 1_000));
    mock.failNext({ status: 503, times: 2, method: 'GET', path: `/financial/refund/${hash}` });
    const again = processor(run(hash, 2, 1_000));
    await expect(again).rejects.toThrow(
      /^A refund request of this job may have taken effect \(a run sent it/,
    );
    // Enqueued again (the first job removed), its second run knows nothing of the first job's.
    const other = processor(run(hash, 2, 2_000));
    await expect(other).rejects.toThrow(
      /^InternalServerError 503: GET \/financial\/refund\/\S+ → 503 /,
    );
    expect(refundPostsTo(mock, hash)).toBe(1);
  });
});
