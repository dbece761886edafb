/**
 * Webhook dedupe across real processes: four receivers (child processes, each its own node:http
 * server and Redis connection) share one redis-server through RedisDedupeStore. A sender here
 * delivers events with duplicates to random receivers and redelivers whatever was not answered
 * 200, as the service does. Once per client library.
 */

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionEndedEvent } from '../../src/testing/index';
import { type Child, startChildren } from '../helpers/children';
import { libraries } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';
import { sleep } from '../helpers/waits';

const fixture = fileURLToPath(new URL('fixtures/webhook-receiver.ts', import.meta.url));
const RECEIVERS = 4;
const TOKEN = 'a-webhook-token';

/** A small seeded generator, so that a failing run can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Delivery {
  code: string;
  body: string;
}

/** `distinct` events, plus duplicates (the same bytes) up to `total` deliveries, shuffled. */
function deliveries(distinct: number, total: number, from: number, next: () => number): Delivery[] {
  const events = Array.from({ length: distinct }, (_, i) => {
    const code = `sub_${from + i}`;
    return { code, body: JSON.stringify(subscriptionEndedEvent({ subscription_code: code })) };
  });
  const all = [...events];
  while (all.length < total) all.push(events[Math.floor(next() * events.length)]!);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all;
}

const post = async (url: string, body: string): Promise<number> => {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-token': TOKEN },
      body,
      signal: AbortSignal.timeout(5_000),
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
};

interface SendResult {
  statuses: Record<number, number>;
  undelivered: Delivery[];
}

/**
 * Sends every delivery to a random receiver, `concurrency` at a time, and sends again (to another
 * random receiver, after a short pause) whatever was not answered 200, until `until()` says stop
 * or each has had `attempts` tries.
 */
async function send(
  urls: string[],
  items: Delivery[],
  next: () => number,
  options: { concurrency?: number; attempts?: number } = {},
): Promise<SendResult> {
  const statuses: Record<number, number> = {};
  const undelivered: Delivery[] = [];
  const queue = items.map((item) => ({ item, tries: 0 }));
  const worker = async () => {
    for (let entry = queue.shift(); entry; entry = queue.shift()) {
      const status = await post(urls[Math.floor(next() * urls.length)]!, entry.item.body);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 200) continue;
      entry.tries++;
      if (entry.tries >= (options.attempts ?? 40)) {
        undelivered.push(entry.item);
        continue;
      }
      // A sender's pause before it delivers again.
      await sleep(10 + next() * 40);
      queue.push(entry);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 24 }, worker));
  return { statuses, undelivered };
}

const redis = useRedisServer();

describe.each(libraries)('webhook receivers sharing RedisDedupeStore over $name', (library) => {
  let receivers: (Child & { ready: Record<string, unknown> })[] = [];
  let urls: string[] = [];

  beforeAll(async () => {
    receivers = await startChildren(RECEIVERS, fixture, () => ({
      REDIS_URL: redis.url,
      REDIS_LIBRARY: library.name,
      REDIS_PREFIX: `receivers-${library.name}:`,
      WEBHOOK_TOKEN: TOKEN,
    }));
    urls = receivers.map((receiver) => String(receiver.ready.url));
  }, 90_000);
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  const handledByCode = async () => {
    const reports = await Promise.all(
      receivers.map((receiver) =>
        receiver.ask<{ handled: string[]; failures: number }>({ op: 'report' }),
      ),
    );
    const counts = new Map<string, number>();
    for (const code of reports.flatMap((report) => report.handled)) {
      counts.set(code, (counts.get(code) ?? 0) + 1);
    }
    const failures = reports.reduce((sum, report) => sum + report.failures, 0);
    const spread = reports.map((report) => report.handled.length);
    return { counts, failures, spread };
  };

  it('1,000 deliveries with duplicates across 4 receivers, some handlers failing once: every event handled exactly once', async () => {
    const next = random(18);
    const before = await handledByCode();
    const items = deliveries(600, 1_000, 0, next);
    const { statuses, undelivered } = await send(urls, items, next);
    expect(undelivered).toEqual([]);
    const { counts, failures, spread } = await handledByCode();
    // Exactly once: every distinct event, and nothing else, handled one time in the whole fleet
    // (beside what the other test, in whichever order they ran, had handled already).
    expect(counts.size).toBe(before.counts.size + 600);
    expect([...counts.values()].filter((count) => count !== 1)).toEqual([]);
    // The failing handlers did fail (500, then redelivered), and every receiver took a share.
    expect(failures - before.failures).toBeGreaterThanOrEqual(60);
    expect(statuses[500]).toBeGreaterThanOrEqual(60);
    expect(spread.every((handled) => handled > 0)).toBe(true);
  }, 120_000);

  it('Redis stopped in the middle: receivers answer 500 and run nothing; redelivered after, every event handled once', async () => {
    const next = random(19);
    // Events handled before the outage: their duplicates are sent during it (same bytes).
    const old = deliveries(50, 50, 2_000, next);
    expect((await send(urls, old, next)).undelivered).toEqual([]);
    const before = await handledByCode();
    // New events and those duplicates, sent while Redis is down.
    const fresh = deliveries(100, 150, 1_000, next);
    await redis.stop({ keepData: true });
    let during: SendResult;
    try {
      // All at once: each waits out the store's command timeout, so in rounds they would take
      // that long per round.
      const outage = [...fresh, ...old];
      during = await send(urls, outage, next, { attempts: 1, concurrency: outage.length });
      const after = await handledByCode();
      expect(Object.keys(during.statuses)).toEqual(['500']);
      expect(after.counts).toEqual(before.counts);
    } finally {
      await redis.start();
    }
    // The sender keeps redelivering what was refused; once Redis is back everything goes through.
    const { undelivered } = await send(urls, during.undelivered, next);
    expect(undelivered).toEqual([]);
    const { counts } = await handledByCode();
    expect(counts.size).toBe(before.counts.size + 100);
    expect([...counts.values()].filter((count) => count !== 1)).toEqual([]);
  }, 120_000);
});
