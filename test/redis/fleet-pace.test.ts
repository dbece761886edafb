/**
 * The fleet-wide pace across real processes: four replicas (child processes, each its own
 * PartnerClient and Redis connection, paced by `fleetPace`) call the testing kit's rate-limited
 * loopback server at once, sharing one redis-server. Once per client library.
 */

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMockPartnerApi, type MockServer } from '../../src/testing/index';
import { type Child, startChildren } from '../helpers/children';
import { libraries, sendCommand } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';

const fixture = fileURLToPath(new URL('fixtures/paced-replica.ts', import.meta.url));
const REPLICAS = 4;
/** The kit's limit: a sustained rate and a small bucket, low enough that a busy machine reaches it. */
const LIMIT = { requestsPerSecond: 30, burst: 20 };
/**
 * Calls each replica has in flight over the kit's limit: the fleet's never exceed the kit's
 * bucket, so requests a busy machine bunches (timers firing late together, the kit's own loop
 * catching up) cannot overflow it by themselves; a 429 after the pause can only be the fleet's
 * rate. Fewer slots taken ahead also bounds how far into a pause a replica's earlier slots reach.
 */
const CONCURRENCY = LIMIT.burst / REPLICAS;

interface Answer {
  ok: number;
  failed: string[];
  sent: number[];
  refusals: number[];
  warnings: string[];
}

/** What a replica warned of, its retries after a 429 aside (those are the transport's own). */
const warningsOf = (answer: Answer) => answer.warnings.filter((w) => !/retrying GET/.test(w));

/** The longest span of [from, to) without a send in `sent`. */
function longestSilence(sent: number[], from: number, to: number): number {
  const inside = sent.filter((t) => t > from && t < to).sort((a, b) => a - b);
  const edges = [from, ...inside, to];
  return Math.max(...edges.slice(1).map((t, i) => t - edges[i]!));
}

/** When the fleet's latest pause ends, on the Redis server's clock (ms): the budget's `until`. */
async function pauseEnd(library: (typeof libraries)[number], prefix: string): Promise<number> {
  const connection = await library.connect(redis.url);
  try {
    const [key] = (await sendCommand(connection, ['KEYS', `${prefix}{pace:*}`])) as string[];
    return Number(await sendCommand(connection, ['HGET', key!, 'until']));
  } finally {
    await connection.close();
  }
}

const redis = useRedisServer();

async function startFleet(
  library: string,
  prefix: string,
  startRate: number,
  { replicas: count = REPLICAS, skewMs = () => 0 } = {} as {
    replicas?: number;
    skewMs?: (index: number) => number;
  },
) {
  const mock = createMockPartnerApi({ rateLimit: LIMIT, latencyMs: 2 });
  const api: MockServer = await mock.listen();
  const replicas = await startChildren(count, fixture, (index) => ({
    CLOCK_SKEW_MS: String(skewMs(index)),
    PARTNER_API_BASE_URL: api.url,
    PARTNER_API_CLIENT_TOKEN: mock.credentials.clientToken,
    REDIS_URL: redis.url,
    REDIS_LIBRARY: library,
    REDIS_PREFIX: prefix,
    PACE_RPS: String(startRate),
  })).catch(async (error: unknown) => {
    await api.close();
    throw error;
  });
  return {
    mock,
    replicas,
    calls: (n: number, concurrency: number) =>
      Promise.all(
        replicas.map((replica: Child) =>
          replica.ask<Answer>({ op: 'calls', n, concurrency }, 60_000),
        ),
      ),
    async close() {
      await Promise.all(replicas.map((replica) => replica.close()));
      await api.close();
    },
  };
}

describe.each(libraries)('fleetPace over $name', (library) => {
  it('replicas whose clocks are an hour apart draw from one budget, spaced on the Redis server clock', async () => {
    // Under the kit's limit: what spaces the sends is the budget alone.
    const rate = 20;
    const fleet = await startFleet(library.name, `skew-${library.name}:`, rate, {
      replicas: 2,
      skewMs: (index) => (index === 0 ? 3_600_000 : -3_600_000),
    });
    try {
      const answers = await fleet.calls(10, 4);
      expect(answers.map((a) => a.failed)).toEqual([[], []]);
      expect(answers.flatMap(warningsOf)).toEqual([]);
      const sent = answers.flatMap((a) => a.sent).sort((a, b) => a - b);
      expect(sent).toHaveLength(20);
      // 20 slots 1000 / rate ms apart whichever replica took them; a little slack for the loopback.
      expect(sent.at(-1)! - sent[0]!).toBeGreaterThanOrEqual(19 * (1_000 / rate) * 0.9);
      expect(fleet.mock.stats.rateLimited).toBe(0);
    } finally {
      await fleet.close();
    }
  }, 90_000);

  it(`${REPLICAS} replicas over the kit's limit: after the first 429, one pause for all and no 429 after it`, async () => {
    // The fleet starts above the kit's rate, so the kit refuses once the bucket is empty.
    const fleet = await startFleet(library.name, `pace-${library.name}:`, 37);
    try {
      const answers = await fleet.calls(60, CONCURRENCY);
      expect(answers.map((a) => a.failed)).toEqual(fleet.replicas.map(() => []));
      expect(answers.flatMap(warningsOf)).toEqual([]);
      const refusals = answers.flatMap((a) => a.refusals).sort((a, b) => a - b);
      expect(refusals.length).toBeGreaterThan(0);
      expect(fleet.mock.stats.rateLimited).toBe(refusals.length);
      const first = refusals[0]!;
      // One congestion event: every 429 answered a request already on its way when the first
      // came back, within the pause the kit asked for (one second); none after it.
      expect(refusals.at(-1)! - first).toBeLessThan(1_000);
      // The pause as the fleet held it: it starts when the refused replica's word reaches Redis,
      // which on a busy machine can be well after its 429 came back, and ends the kit's pause
      // later (the children's clocks and the server's are this machine's).
      const until = await pauseEnd(library, `pace-${library.name}:`);
      expect(until - first).toBeGreaterThanOrEqual(1_000);
      // The pause is every replica's, not only theirs that were refused: each falls silent in it
      // (past the slots it took before it heard of the pause, from its next answer from Redis,
      // which on a busy machine takes a few hundred milliseconds) until the pause ends.
      for (const answer of answers) {
        expect(longestSilence(answer.sent, until - 1_000, until)).toBeGreaterThanOrEqual(400);
      }
      expect(refusals.length).toBeLessThan(REPLICAS * CONCURRENCY);
    } finally {
      await fleet.close();
    }
  }, 90_000);

  it('Redis stopped mid-run: each replica goes on at its own pace with one warning, no call fails; back, the fleet budget is used again', async () => {
    const prefix = `pace-down-${library.name}:`;
    const fleet = await startFleet(library.name, prefix, 25);
    try {
      const running = fleet.calls(40, 4);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await redis.stop();
      let answers: Answer[];
      try {
        answers = await running;
      } finally {
        await redis.start();
      }
      expect(answers.map((a) => a.failed)).toEqual(fleet.replicas.map(() => []));
      expect(answers.map((a) => a.ok)).toEqual(fleet.replicas.map(() => 40));
      for (const answer of answers) {
        expect(warningsOf(answer)).toEqual([
          expect.stringMatching(/fleet pace unavailable .*pacing this process on its own/),
        ]);
      }
      const pongs = await Promise.all(fleet.replicas.map((replica) => replica.ask({ op: 'ping' })));
      expect(pongs).toEqual(fleet.replicas.map(() => ({ pong: true })));
      // Back on the fleet's budget: it is in Redis again, and no replica warns.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const again = await fleet.calls(20, 2);
      expect(again.flatMap((a) => [...a.failed, ...warningsOf(a)])).toEqual([]);
      const connection = await library.connect(redis.url);
      try {
        const keys = await sendCommand(connection, ['KEYS', `${prefix}{pace:*}`]);
        expect(keys).toHaveLength(1);
      } finally {
        await connection.close();
      }
    } finally {
      await fleet.close();
    }
  }, 120_000);
});
