/**
 * One delivery sent 50 times at once across four receivers (child processes, each its own
 * node:http server and Redis connection) sharing RedisDedupeStore: the handler runs once, every
 * other copy is answered 503 (being handled elsewhere) or 200 (a duplicate) or the first run's own
 * answer; a handler that fails leaves the delivery to a later one, which runs it once.
 */

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionEndedEvent } from '../../src/testing/index';
import { type Child, startChildren } from '../helpers/children';
import { nodeRedis } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';

// Its handler fails the first time a receiver sees a code ending in `0`.
const fixture = fileURLToPath(new URL('fixtures/webhook-receiver.ts', import.meta.url));
const TOKEN = 'a-racing-token';
const COPIES = 50;

const redis = useRedisServer();

describe('the same delivery 50 times at once across 4 receivers sharing RedisDedupeStore', () => {
  let receivers: (Child & { ready: Record<string, unknown> })[] = [];

  beforeAll(async () => {
    receivers = await startChildren(4, fixture, () => ({
      REDIS_URL: redis.url,
      REDIS_LIBRARY: nodeRedis.name,
      REDIS_PREFIX: 'racing:',
      WEBHOOK_TOKEN: TOKEN,
    }));
  }, 90_000);
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  /** Sends `body` `COPIES` times at once, spread over the receivers; the answers' statuses. */
  const burst = (body: string): Promise<number[]> =>
    Promise.all(
      Array.from({ length: COPIES }, async (_, i) => {
        const response = await fetch(String(receivers[i % receivers.length]!.ready.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-webhook-token': TOKEN },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );

  /** How many times the fleet ran the handler for `code`: succeeded, and failed in all. */
  const runs = async (code: string) => {
    const reports = await Promise.all(
      receivers.map((receiver) =>
        receiver.ask<{ handled: string[]; failures: number }>({ op: 'report' }),
      ),
    );
    const handled = reports.flatMap((report) => report.handled).filter((c) => c === code).length;
    const failures = reports.reduce((sum, report) => sum + report.failures, 0);
    return { handled, failures };
  };

  it('a handler that succeeds runs once; the others are answered 200 or 503, and a later burst all 200', async () => {
    const body = JSON.stringify(subscriptionEndedEvent({ subscription_code: 'sub_race_1' }));
    const statuses = await burst(body);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(statuses).toContain(200);
    expect((await runs('sub_race_1')).handled).toBe(1);
    expect(await burst(body)).toEqual(Array(COPIES).fill(200));
    expect((await runs('sub_race_1')).handled).toBe(1);
  }, 30_000);

  it('a handler that fails is answered 500 where it ran, its claim released: later bursts run it until it succeeds, once', async () => {
    const body = JSON.stringify(subscriptionEndedEvent({ subscription_code: 'sub_race_10' }));
    const before = await runs('sub_race_10');
    const statuses = await burst(body);
    const afterFirst = await runs('sub_race_10');
    // The first run failed: it was answered 500 and nothing was acknowledged before a run succeeded.
    expect(afterFirst.failures - before.failures).toBeGreaterThanOrEqual(1);
    expect(statuses).toContain(500);
    if (afterFirst.handled === 0) expect(statuses).not.toContain(200);
    // Each receiver fails its first run only, so at most four bursts more see it through.
    for (let round = 0; round < 5 && (await runs('sub_race_10')).handled === 0; round++) {
      await burst(body);
    }
    const after = await runs('sub_race_10');
    expect(after.handled).toBe(1);
    expect(after.failures - before.failures).toBeLessThanOrEqual(receivers.length);
    expect(await burst(body)).toEqual(Array(COPIES).fill(200));
    expect(await runs('sub_race_10')).toEqual(after);
  }, 30_000);
});
