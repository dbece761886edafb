/**
 * The shared client-token cache across real processes: four replicas (child processes, each its
 * own PartnerClient and Redis connection) share one redis-server and the testing kit's loopback
 * server, which counts the logins. Once per client library.
 */

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMockPartnerApi,
  type MockPartnerApi,
  type MockServer,
} from '../../src/testing/index';
import { type Child, startChildren } from '../helpers/children';
import { libraries } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';

const fixture = fileURLToPath(new URL('fixtures/token-replica.ts', import.meta.url));
const REPLICAS = 4;
const CALLS = 100;

interface Answer {
  ok: number;
  failed: string[];
  warnings: string[];
}

const redis = useRedisServer();

/** A testing kit on loopback and `REPLICAS` children logging in to it through `prefix` in Redis. */
interface Fleet {
  mock: MockPartnerApi;
  replicas: Child[];
  /** Every replica makes `n` calls at once; resolves to their answers. */
  calls(n: number): Promise<Answer[]>;
  close(): Promise<void>;
}

async function startFleet(library: string, prefix: string): Promise<Fleet> {
  const mock = createMockPartnerApi();
  const api: MockServer = await mock.listen();
  const replicas = await startChildren(REPLICAS, fixture, () => ({
    PARTNER_API_BASE_URL: api.url,
    PARTNER_API_CLIENT_ID: mock.credentials.clientId,
    PARTNER_API_CLIENT_SECRET: mock.credentials.clientSecret,
    REDIS_URL: redis.url,
    REDIS_LIBRARY: library,
    REDIS_PREFIX: prefix,
  })).catch(async (error: unknown) => {
    await api.close();
    throw error;
  });
  return {
    mock,
    replicas,
    calls: (n) =>
      Promise.all(replicas.map((replica) => replica.ask<Answer>({ op: 'calls', n }, 30_000))),
    async close() {
      await Promise.all(replicas.map((replica) => replica.close()));
      await api.close();
    },
  };
}

describe.each(libraries)('replicas sharing RedisTokenStore over $name', (library) => {
  // The fleet the renewal tests share: they count logins from where they start (deltas).
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet(library.name, `replicas-${library.name}:`);
  }, 90_000);
  afterAll(() => fleet?.close());

  // Its own fleet and prefix, whatever ran before: a cold start, no token anywhere, counted from
  // zero. (A delta on the shared fleet would pass on a token an earlier test left in Redis.)
  it(`${REPLICAS} replicas starting at once, ${CALLS} calls each: one POST /auth in total`, async () => {
    const cold = await startFleet(library.name, `replicas-cold-${library.name}:`);
    try {
      const answers = await cold.calls(CALLS);
      expect(answers.map((a) => a.failed)).toEqual(cold.replicas.map(() => []));
      expect(answers.map((a) => a.ok)).toEqual(cold.replicas.map(() => CALLS));
      expect(answers.flatMap((a) => a.warnings)).toEqual([]);
      expect(cold.mock.stats.logins).toBe(1);
      expect(cold.mock.stats.requests).toBe(1 + REPLICAS * CALLS);
    } finally {
      await cold.close();
    }
  }, 90_000);

  it('a client token refused by the service: one re-login for the fleet', async () => {
    const before = fleet.mock.stats.logins;
    fleet.mock.expireTokens();
    const answers = await fleet.calls(25);
    expect(answers.map((a) => a.ok)).toEqual(fleet.replicas.map(() => 25));
    expect(answers.flatMap((a) => a.warnings)).toEqual([]);
    expect(fleet.mock.stats.logins - before).toBe(1);
  }, 60_000);

  it('Redis stopped in the middle: each replica logs in on its own with a warning, no call fails; back, the fleet shares again', async () => {
    await redis.stop();
    try {
      const before = fleet.mock.stats.logins;
      fleet.mock.expireTokens();
      const answers = await fleet.calls(25);
      expect(answers.map((a) => a.failed)).toEqual(fleet.replicas.map(() => []));
      // One local login per replica (single-flight within each), never one per call.
      expect(fleet.mock.stats.logins - before).toBe(REPLICAS);
      for (const answer of answers) {
        expect(answer.warnings).toEqual([
          expect.stringMatching(/Redis token store unavailable.*logging in from this process/),
        ]);
      }
    } finally {
      await redis.start();
    }
    // The clients reconnect on their own; the first renewal after that is shared again.
    const pongs = await Promise.all(fleet.replicas.map((replica) => replica.ask({ op: 'ping' })));
    expect(pongs).toEqual(fleet.replicas.map(() => ({ pong: true })));
    const before = fleet.mock.stats.logins;
    fleet.mock.expireTokens();
    const answers = await fleet.calls(25);
    expect(answers.map((a) => a.failed)).toEqual(fleet.replicas.map(() => []));
    expect(fleet.mock.stats.logins - before).toBe(1);
  }, 60_000);
});
