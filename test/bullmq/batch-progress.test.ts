/**
 * `followBatch(queue, batchId)` on a real redis-server follows one batch, not the whole queue:
 * two batches on one queue (sharing a transaction), each followed to its own end with its own
 * counts.
 */

import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { PartnerClient } from 'partner-sdk';
import {
  BatchNotRecordedError,
  enqueueRefunds,
  followBatch,
  type QueueProgress,
  refundProcessor,
} from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeRedis } from '../helpers/redis-libraries';
import { type RedisServer, startRedisServer } from '../helpers/redis-server';

let server: RedisServer;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  server = await startRedisServer();
}, 20_000);
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  await server?.close();
});

/** A kit, its seller's client, a fresh queue and a Redis connection, closed after the file. */
function setUp() {
  const mock = createMockPartnerApi({ refundPolls: 0 });
  const seller = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
    logLevel: 'off',
  }).forUser(mock.sellers.person.publicToken);
  const connection = { host: '127.0.0.1', port: server.port, maxRetriesPerRequest: null };
  const queue = new Queue(`refunds-${randomUUID()}`, { connection });
  const redis = new Redis(server.port, '127.0.0.1');
  cleanups.push(
    () => queue.close(),
    () => redis.quit(),
  );
  return { mock, seller, queue, redis, connection };
}

describe('followBatch of one batch', () => {
  it('counts only the jobs of the batch it follows, to that batch’s end', async () => {
    const { mock, seller, queue, redis, connection } = setUp();
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

    const worker = new Worker(queue.name, refundProcessor(seller, { queue, redis }), {
      connection,
      concurrency: 2,
    });
    cleanups.push(() => worker.close(true));
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
    const { mock, seller, queue, redis, connection } = setUp();
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

    const worker = new Worker(queue.name, refundProcessor(seller, { queue, redis }), {
      connection,
      concurrency: 2,
    });
    cleanups.push(() => worker.close(true));
    expect(await followed).toMatchObject({ total: 5, done: 5, completed: 5, waiting: 0 });
  }, 30_000);

  it('follows to its end a batch whose enqueue failed once and was made again, as the guide says', async () => {
    const { mock, seller, queue, redis, connection } = setUp();
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

    const worker = new Worker(queue.name, refundProcessor(seller, { queue, redis }), {
      connection,
      concurrency: 2,
    });
    cleanups.push(() => worker.close(true));
    const last = await followBatch(queue, batchId, {
      redis,
      intervalMs: 50,
      signal: AbortSignal.timeout(20_000),
    });
    expect(last).toMatchObject({ total: 3, done: 3, completed: 3, waiting: 0 });
  }, 30_000);

  it('keeps apart the batches of two queues of one name under different BullMQ prefixes', async () => {
    const { mock, seller, redis, connection } = setUp();
    const name = `refunds-${randomUUID()}`;
    const staging = new Queue(name, { connection, prefix: 'staging' });
    const production = new Queue(name, { connection, prefix: 'production' });
    cleanups.push(
      () => staging.close(),
      () => production.close(),
    );
    const items = (count: number) =>
      Array.from({ length: count }, () => ({ transactionHash: mock.addTransaction() }));
    // The same batch id chosen in both environments, the second enqueued last.
    await enqueueRefunds(staging, items(2), { redis, batchId: 'cohort-7' });
    await enqueueRefunds(production, items(3), { redis, batchId: 'cohort-7' });

    const worker = new Worker(name, refundProcessor(seller, { queue: staging, redis }), {
      connection,
      prefix: 'staging',
    });
    cleanups.push(() => worker.close(true));
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
    const { mock, seller, queue, connection } = setUp();
    const redis = await nodeRedis.connect(server.url);
    cleanups.push(() => redis.close());
    const hashes = [1, 2, 3].map(() => mock.addTransaction());
    const { batchId } = await enqueueRefunds(
      queue,
      hashes.map((transactionHash) => ({ transactionHash })),
      { redis: redis.client },
    );
    const worker = new Worker(queue.name, refundProcessor(seller, { queue, redis: redis.client }), {
      connection,
    });
    cleanups.push(() => worker.close(true));
    expect(
      await followBatch(queue, batchId, {
        redis: redis.client,
        intervalMs: 50,
        signal: AbortSignal.timeout(20_000),
      }),
    ).toMatchObject({ total: 3, done: 3, completed: 3 });
    for (const hash of hashes) expect(await seller.refunds.list(hash)).toHaveLength(1);
  }, 30_000);

  it('refuses a batch that has no record, naming the option that records one', async () => {
    const { queue, redis } = setUp();
    const error = await followBatch(queue, 'no-such-batch', { redis }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchNotRecordedError);
    expect(error).toMatchObject({ name: 'BatchNotRecordedError', batchId: 'no-such-batch' });
    expect((error as Error).message).toMatch(/No record of batch "no-such-batch".*`redis` option/);
  });
});
