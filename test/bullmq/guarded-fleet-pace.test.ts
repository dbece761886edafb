/**
 * `refundProcessor` with `unlessRefunded` under `fleetPace`, on a real redis-server, against the
 * testing kit's rate-limited loopback server: each job reads the transaction's refunds, then
 * requests the refund, and both calls take a slot of the fleet's budget (the pace is per
 * request, in the client's transport). A read refused with 429 holds the queue for its
 * `Retry-After` and the job runs again (no attempt counted), never failed for it: every
 * transaction ends with exactly one refund. In real time, so nothing is asserted on how long it
 * took.
 */

import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { PartnerClient } from 'partner-sdk';
import { enqueueRefunds, refundProcessor } from 'partner-sdk/bullmq';
import { fleetPace } from 'partner-sdk/redis';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ioredis } from '../helpers/redis-libraries';
import { type RedisServer, startRedisServer } from '../helpers/redis-server';
import { waitFor } from '../helpers/waits';

let redis: RedisServer;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
}, 20_000);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});
afterAll(async () => {
  await redis?.close();
});

/**
 * Refunds `count` fresh transactions through one worker's guarded `refundProcessor`, its client
 * paced by `fleetPace` at the kit's rate: what the kit served, and the seconds it took.
 */
async function guardedBatch(
  count: number,
  rate: number,
  burst: number,
  before: (mock: MockPartnerApi, hashes: string[]) => void = () => {},
) {
  const mock = createMockPartnerApi({ refundPolls: 0, latencyMs: 2 });
  const hashes = Array.from({ length: count }, () => mock.addTransaction());
  const api = await mock.listen();
  cleanups.push(() => api.close());
  const paceRedis = await ioredis.connect(redis.url);
  cleanups.push(() => paceRedis.close());
  const prefix = `guarded-${randomUUID()}:`;
  const seller = new PartnerClient({
    baseUrl: api.url,
    clientToken: mock.credentials.clientToken,
    logLevel: 'off',
    pace: fleetPace(paceRedis.client, { requestsPerSecond: rate, prefix }),
  }).forUser(mock.sellers.person.publicToken);
  const name = `refunds-${randomUUID()}`;
  const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
  const queue = new Queue(name, { connection });
  cleanups.push(() => queue.close());
  mock.setRateLimit({ requestsPerSecond: rate, burst });
  mock.clearRequests();
  before(mock, hashes);
  const processor = refundProcessor(seller, { queue, unlessRefunded: true });
  const worker = new Worker(name, processor, { connection, concurrency: 4 });
  let ended = 0;
  worker.on('completed', () => void ended++);
  // A failure BullMQ will retry is not an end: only the last one is.
  worker.on('failed', (job) => void (job?.finishedOn && ended++));
  worker.on('error', () => {});
  cleanups.push(() => worker.close(true));
  await enqueueRefunds(
    queue,
    hashes.map((transactionHash) => ({ transactionHash })),
  );
  await waitFor(() => ended >= count, `${count} jobs ended`, 120_000);
  const { requests, rateLimited } = mock.stats;
  mock.setRateLimit(undefined);
  const failed = (await queue.getJobCounts('failed')).failed ?? 0;
  // Read back through the kit's own face, past the fleet's budget.
  const reader = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
    logLevel: 'off',
  }).forUser(mock.sellers.person.publicToken);
  const made = await Promise.all(hashes.map((hash) => reader.refunds.list(hash)));
  const refunds = made.map((list) => list.length);
  const sent = (method: string) =>
    mock.requests.filter((r) => r.method === method && r.path.startsWith('/financial/refund/'));
  return {
    share: rateLimited / requests,
    failed,
    refunds,
    reads: sent('GET'),
    posts: sent('POST'),
  };
}

describe('a guarded refundProcessor under fleetPace, against the rate-limited kit on loopback', () => {
  it('takes a slot of the fleet budget for the read and one for the request: 60 jobs at 20 requests a second with a burst of 10, few 429s, one refund each', async () => {
    const run = await guardedBatch(60, 20, 10);
    expect(run.failed).toBe(0);
    expect(run.refunds.filter((n) => n !== 1)).toEqual([]);
    // Both calls paced: sent at the kit's rate, they are seldom refused. Were the read left out
    // of the budget, the two would go at twice the kit's rate, into a stream of 429s.
    expect(run.share).toBeLessThan(0.03);
    expect(run.reads.length).toBeGreaterThanOrEqual(60);
  }, 180_000);

  it('a read refused with 429 does not fail its job: the job runs again, and the transaction is refunded once', async () => {
    let refused = '';
    const run = await guardedBatch(8, 20, 10, (mock, hashes) => {
      refused = hashes[3]!;
      mock.failNext({
        status: 429,
        retryAfter: 1,
        method: 'GET',
        path: `/financial/refund/${refused}`,
      });
    });
    expect(run.failed).toBe(0);
    expect(run.refunds).toEqual(Array(8).fill(1));
    const ofRefused = (list: { path: string }[]) =>
      list.filter((r) => r.path === `/financial/refund/${refused}`).length;
    expect(ofRefused(run.posts)).toBe(1);
    // The refused read, then, as the job runs again, at least the guard's read once more.
    expect(ofRefused(run.reads)).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
