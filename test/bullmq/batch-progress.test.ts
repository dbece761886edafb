/**
 * `followBatch(queue, batchId)` on a real redis-server follows one batch, not the whole queue:
 * two batches on one queue (sharing a transaction), each followed to its own end with its own
 * counts.
 */

import { randomUUID } from 'node:crypto';
import {
  BatchNotRecordedError,
  enqueueRefunds,
  followBatch,
  type QueueProgress,
  refundProcessor,
} from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { useBullmq } from '../helpers/bullmq-queues';
import { kitClients } from '../helpers/kit-clients';
import { nodeRedis } from '../helpers/redis-libraries';

const bullmq = useBullmq();

/** A kit, its seller's client, a fresh queue and a Redis connection, closed after the test. */
function setUp() {
  const { mock, seller } = kitClients(createMockPartnerApi({ refundPolls: 0 }));
  return { mock, seller, queue: bullmq.queue(), redis: bullmq.redis() };
}

describe('followBatch of one batch', () => {
  it('counts only the jobs of the batch it follows, to that batch’s end', async () => {
    const { mock, seller, queue, redis } = setUp();
    const [t1, t2, t3, t4] = [1, 2, 3, 4].map(() => mock.addTransaction());
    const items = (hashes: string[]) => hashes.map((transactionHash) => ({ transactionHash }));
    const first = await enqueueRefunds(queue, items([t1!, t2!]), { redis });
    // The second batch shares t2 with the first and holds a transaction the service refuses.
    const second = await enqueueRefunds(queue, items([t3!, t4!, 'trx_missing', t2!]), { redis });
    expect(first).toMatchObject({ enqueued: 2, jobs: 2 });
    expect(second).toMatchObject({ enqueued: 4, jobs: 4 });
    expect(second.batchId).not.toBe(first.batchId);

    const reports: QueueProgress[] = [];
    const followed = followBatch(queue, first.batchId, {
      redis,
      intervalMs: 50,
      onProgress: (p) => reports.push(p),
    });
    const followedSecond = followBatch(queue, second.batchId, { redis, intervalMs: 50 });
    // Both are awaited further down: a rejection before then must fail this test when awaited,
    // not surface meanwhile as an unhandled rejection of the whole run.
    for (const following of [followed, followedSecond]) following.catch(() => undefined);
    // Before any worker runs: the first batch's two jobs wait, not the queue's five.
    await expect.poll(() => reports.length, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(reports[0]).toMatchObject({ total: 2, done: 0, waiting: 2, active: 0 });
    expect((await queue.getJobCounts('waiting')).waiting).toBe(5);

    bullmq.worker(queue.name, refundProcessor(seller, { queue, redis }), { concurrency: 2 });
    expect(await followed).toMatchObject({
      total: 2,
      done: 2,
      completed: 2,
      failed: 0,
      failedBy: {},
      waiting: 0,
      active: 0,
    });
    expect(await followedSecond).toMatchObject({
      total: 4,
      done: 4,
      completed: 3,
      failed: 1,
      failedBy: { NotFoundError: 1 },
      waiting: 0,
      active: 0,
    });
    expect(reports.every((p) => p.total === 2)).toBe(true);
  }, 30_000);

  it('follows a batch enqueued in several calls under one id to the end of all of them', async () => {
    const { mock, seller, queue, redis } = setUp();
    const hashes = [1, 2, 3, 4, 5].map(() => mock.addTransaction());
    const items = (list: string[]) => list.map((transactionHash) => ({ transactionHash }));
    const batchId = `cohort-${randomUUID()}`;
    await enqueueRefunds(queue, items(hashes.slice(0, 3)), { redis, batchId });
    // The second call repeats a transaction of the first: one job, counted once.
    await enqueueRefunds(queue, items(hashes.slice(2)), { redis, batchId });

    const reports: QueueProgress[] = [];
    const followed = followBatch(queue, batchId, {
      redis,
      intervalMs: 50,
      signal: AbortSignal.timeout(20_000),
      onProgress: (p) => reports.push(p),
    });
    // Awaited further down: a rejection before then must fail this test when awaited, not
    // surface meanwhile as an unhandled rejection of the whole run.
    followed.catch(() => undefined);
    await expect.poll(() => reports.length, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(reports[0]).toMatchObject({ total: 5, done: 0, waiting: 5 });

    bullmq.worker(queue.name, refundProcessor(seller, { queue, redis }), { concurrency: 2 });
    expect(await followed).toMatchObject({ total: 5, done: 5, completed: 5, waiting: 0 });
  }, 30_000);

  it('follows to its end a batch whose enqueue failed once and was made again, as the guide says', async () => {
    const { mock, seller, queue, redis } = setUp();
    const items = [1, 2, 3].map(() => ({ transactionHash: mock.addTransaction() }));
    const batchId = `retried-${randomUUID()}`;
    // The queue fails after the ids were recorded: the record names jobs that were never added.
    const failing = {
      name: queue.name,
      toKey: (type: string) => queue.toKey(type),
      addBulk: async () => {
        throw new Error('queue unavailable');
      },
    };
    await expect(enqueueRefunds(failing, items, { redis, batchId })).rejects.toThrow(
      'queue unavailable',
    );
    expect(await queue.count()).toBe(0);
    await enqueueRefunds(queue, items, { redis, batchId });

    bullmq.worker(queue.name, refundProcessor(seller, { queue, redis }), { concurrency: 2 });
    const last = await followBatch(queue, batchId, {
      redis,
      intervalMs: 50,
      signal: AbortSignal.timeout(20_000),
    });
    expect(last).toMatchObject({ total: 3, done: 3, completed: 3, waiting: 0 });
  }, 30_000);

  it('keeps apart the batches of two queues of one name under different BullMQ prefixes', async () => {
    const { mock, seller, redis } = setUp();
    const name = `refunds-${randomUUID()}`;
    const staging = bullmq.queue(name, { prefix: 'staging' });
    const production = bullmq.queue(name, { prefix: 'production' });
    const items = (count: number) =>
      Array.from({ length: count }, () => ({ transactionHash: mock.addTransaction() }));
    // The same batch id chosen in both environments, the second enqueued last.
    await enqueueRefunds(staging, items(2), { redis, batchId: 'cohort-7' });
    await enqueueRefunds(production, items(3), { redis, batchId: 'cohort-7' });

    bullmq.worker(name, refundProcessor(seller, { queue: staging, redis }), { prefix: 'staging' });
    expect(
      await followBatch(staging, 'cohort-7', {
        redis,
        intervalMs: 50,
        signal: AbortSignal.timeout(20_000),
      }),
    ).toMatchObject({
      total: 2,
      done: 2,
      completed: 2,
      waiting: 0,
    });
    expect((await production.getJobCounts('waiting')).waiting).toBe(3);
  }, 30_000);

  it('records, follows and leases through a connected `redis` (node-redis) client as the guide says', async () => {
    const { mock, seller, queue } = setUp();
    const redis = await nodeRedis.connect(bullmq.server.url);
    bullmq.onCleanup(() => redis.close());
    const hashes = [1, 2, 3].map(() => mock.addTransaction());
    const { batchId } = await enqueueRefunds(
      queue,
      hashes.map((transactionHash) => ({ transactionHash })),
      { redis: redis.client },
    );
    bullmq.worker(queue.name, refundProcessor(seller, { queue, redis: redis.client }));
    expect(
      await followBatch(queue, batchId, {
        redis: redis.client,
        intervalMs: 50,
        signal: AbortSignal.timeout(20_000),
      }),
    ).toMatchObject({ total: 3, done: 3, completed: 3 });
    for (const hash of hashes) expect(await seller.refunds.list(hash)).toHaveLength(1);
  }, 30_000);

  it('counts a job out of attempts on a retryable failure by the error that failed it', async () => {
    const { mock, seller, queue, redis } = setUp();
    const [unavailable, cut, fine] = [1, 2, 3].map(() => mock.addTransaction());
    // Every attempt of these two fails as BullMQ retries it: a 503, then a connection cut.
    const refund = (hash: string) => ({ path: `/financial/refund/${hash}`, method: 'POST' });
    mock.failNext({ status: 503, times: 2, ...refund(unavailable!) });
    mock.dropNext({ times: 2, ...refund(cut!) });
    const items = [unavailable, cut, fine].map((transactionHash) => ({
      transactionHash: transactionHash!,
    }));
    const { batchId } = await enqueueRefunds(queue, items, { redis, attempts: 2, backoffMs: 0 });

    bullmq.worker(queue.name, refundProcessor(seller, { queue, redis }));
    const last = await followBatch(queue, batchId, {
      redis,
      intervalMs: 50,
      signal: AbortSignal.timeout(20_000),
    });
    expect(last).toMatchObject({
      total: 3,
      completed: 1,
      failed: 2,
      failedBy: { InternalServerError: 1, APIConnectionError: 1 },
    });
    // The reason still says first what became of the refund, then names the failure.
    const failed = await queue.getJob(`refund-request/${unavailable}`);
    expect(failed?.failedReason).toMatch(
      /^A refund request of this job may have taken effect .* Last failure: InternalServerError 503: /,
    );
  }, 30_000);

  it('refuses a batch that has no record, naming the option that records one', async () => {
    const { queue, redis } = setUp();
    const error = await followBatch(queue, 'no-such-batch', { redis }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchNotRecordedError);
    expect(error).toMatchObject({ name: 'BatchNotRecordedError', batchId: 'no-such-batch' });
    expect((error as Error).message).toMatch(/No record of batch "no-such-batch".*`redis` option/);
  });
});
