/**
 * A marketplace's fleet as a partner builds it from the guides: two replicas (child processes,
 * `fixtures/marketplace-replica.ts`) behind one webhook URL, six sellers added to the kit, one
 * redis-server. Every `subscription_ended` is delivered twice, to either replica, and handled once;
 * its refund goes on the producer's queue and is made by either replica's workers, paced by one
 * fleet budget against the rate-limited kit. One replica is SIGKILLed mid-run: every transaction
 * ends with exactly one refund, the fleet logged in once, and a seller's queue never refunds
 * another seller's transaction. The surviving replica's spans put a refund job in the trace of
 * the delivery that enqueued it.
 */

import http from 'node:http';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { PartnerClient } from 'partner-sdk';
import {
  createMockPartnerApi,
  deliver,
  type MockSeller,
  type MockServer,
  subscriptionEndedEvent,
} from 'partner-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Child, startChild } from '../helpers/children';
import { listen, type RunningServer } from '../helpers/http-servers';
import { type RedisServer, startRedisServer } from '../helpers/redis-server';
import { sleep } from '../helpers/waits';

const SECRET = 'whsec_marketplace';
const PER_SELLER = 4;
const mock = createMockPartnerApi({ refundPolls: 0, latencyMs: 50 });
const sellers = Array.from({ length: 6 }, (_, i) =>
  mock.addSeller({ type: i % 2 ? 'company' : 'person' }),
);
let redis: RedisServer;
let api: MockServer;
let replicas: Child[] = [];
let balancer: RunningServer;
const alive = new Set<number>();

/** One URL for the fleet: each delivery goes to the next live replica, a dead one's turn is 502. */
function roundRobin(urls: string[]): http.Server {
  let turn = 0;
  return http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const index = turn++ % urls.length;
    if (!alive.has(index)) return void res.writeHead(502).end();
    const answer = await fetch(new URL(req.url ?? '/', urls[index]), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat(chunks),
    }).catch(() => undefined);
    res.writeHead(answer?.status ?? 502).end(answer ? await answer.text() : '');
  });
}

function endedFor(seller: MockSeller, transactionHash: string) {
  const user = { code: seller.code, name: 'Seller', email: 'seller@example.com.br' };
  return subscriptionEndedEvent({
    commissions: {
      transaction_hash: transactionHash,
      items: [{ type: 'producer', amount: 4990, user }],
    },
  });
}

/**
 * The platform's side: delivers again until the fleet answers 200. A delivery the killed replica
 * was handling stays claimed until its lease ends (the fixture's `handlerTimeoutMs` makes it 9 s),
 * answered 503 until then.
 */
async function deliverUntilHandled(event: unknown): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const status = await deliver(`${balancer.url}?token=${SECRET}`, event, { timeoutMs: 10_000 });
    if (status === 200) return;
    await sleep(100);
  }
  throw new Error('a delivery was never acknowledged');
}

async function until(what: string, check: () => Promise<boolean>, ms = 90_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

beforeAll(async () => {
  mock.setRateLimit({ requestsPerSecond: 20 });
  [redis, api] = await Promise.all([startRedisServer(), mock.listen()]);
  const env = {
    PARTNER_API_BASE_URL: api.url,
    PARTNER_API_CLIENT_ID: mock.credentials.clientId,
    PARTNER_API_CLIENT_SECRET: mock.credentials.clientSecret,
    REDIS_URL: redis.url,
    WEBHOOK_TOKEN: SECRET,
    SELLERS: JSON.stringify(Object.fromEntries(sellers.map((s) => [s.code, s.publicToken]))),
  };
  const fixture = 'test/examples/fixtures/marketplace-replica.ts';
  replicas = [startChild(fixture, env), startChild(fixture, env)];
  // Loading BullMQ and OpenTelemetry in two fresh processes takes a while on a busy machine.
  const ready = await Promise.all(replicas.map((child) => child.next<{ url: string }>(90_000)));
  for (const index of ready.keys()) alive.add(index);
  balancer = await listen(roundRobin(ready.map((r) => r.url)));
}, 120_000);

afterAll(async () => {
  await Promise.all(replicas.map((child) => child.close()));
  await balancer?.close();
  await api?.close();
  await redis?.close();
});

it('refunds each ended subscription once across the fleet, one replica SIGKILLed mid-run', async () => {
  const owned = sellers.flatMap((seller) =>
    Array.from({ length: PER_SELLER }, () => ({
      seller,
      trx: mock.addTransaction(4990, { seller: seller.code }),
    })),
  );
  // A seller's queue given another seller's transaction: the kit answers 404, the job fails.
  const [first, second] = sellers as [MockSeller, MockSeller];
  const foreign = mock.addTransaction(4990, { seller: second.code });
  const events = [
    ...owned.map(({ seller, trx }) => endedFor(seller, trx)),
    endedFor(first, foreign),
  ];
  const refundPosts = () =>
    mock.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/financial/refund/'));

  const deliveries = Promise.all([...events, ...events].map(deliverUntilHandled));
  await until('a third of the refunds', async () => refundPosts().length >= owned.length / 3);
  alive.delete(0);
  await replicas[0]!.close();
  await deliveries;

  const queues = sellers.map(
    (s) => new Queue(`refunds-${s.code}`, { connection: { url: redis.url } }),
  );
  try {
    await until('every job to end', async () => {
      const counts = await Promise.all(queues.map((q) => q.getJobCounts('completed', 'failed')));
      return (
        counts.reduce((sum, c) => sum + (c.completed ?? 0) + (c.failed ?? 0), 0) === events.length
      );
    });
    const failed = await Promise.all(queues.map((q) => q.getFailed()));
    // The unknown transaction's job fails on its 404; when the killed replica had sent its request,
    // the reason first says a run sent it and ended without its answer (read before enqueueing again).
    expect(failed.flat().map((job) => job.failedReason)).toEqual([
      expect.stringMatching(
        /^(A refund request of this job may have taken effect \(a run sent it and ended without its answer\).* Last failure: )?NotFoundError/,
      ),
    ]);
  } finally {
    await Promise.all(queues.map((q) => q.close()));
  }

  mock.setRateLimit(undefined);
  const checker = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    logLevel: 'off',
    clientToken: mock.credentials.clientToken,
  });
  const counts = await Promise.all(
    owned.map(
      async ({ seller, trx }) =>
        (await checker.forUser(seller.publicToken).refunds.list(trx)).length,
    ),
  );
  expect(counts).toEqual(owned.map(() => 1));
  expect(await checker.forUser(second.publicToken).refunds.list(foreign)).toEqual([]);
  // One login for the fleet; each event handled once of its two deliveries.
  expect(mock.stats.logins).toBe(1);
  const connection = new Redis(redis.url);
  expect(Number(await connection.get('market:partner:handled'))).toBe(events.length);
  connection.disconnect();

  const { spans } = await replicas[1]!.ask<{ spans: { name: string; traceId: string }[] }>({});
  const deliveryTraces = new Set(
    spans.filter((s) => s.name === 'webhooks.delivery').map((s) => s.traceId),
  );
  const jobs = spans.filter((s) => s.name === 'bullmq.refunds.request');
  expect(jobs.some((job) => deliveryTraces.has(job.traceId))).toBe(true);
}, 180_000);
