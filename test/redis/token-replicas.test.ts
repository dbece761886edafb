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
import { type Child, startChildren } from './support/children';
import { libraries } from './support/libraries';
import { type RedisServer, startRedisServer } from './support/redis-server';

const fixture = fileURLToPath(new URL('fixtures/token-replica.ts', import.meta.url));
const REPLICAS = 4;
const CALLS = 100;

interface Answer {
  ok: number;
  failed: string[];
  warnings: string[];
}

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 20_000);
afterAll(() => redis?.close());

describe.each(libraries)('replicas sharing RedisTokenStore over $name', (library) => {
  let mock: MockPartnerApi;
  let api: MockServer;
  let replicas: Child[] = [];

  beforeAll(async () => {
    mock = createMockPartnerApi();
    api = await mock.listen();
    replicas = await startChildren(REPLICAS, fixture, () => ({
      PARTNER_API_BASE_URL: api.url,
      PARTNER_API_CLIENT_ID: mock.credentials.clientId,
      PARTNER_API_CLIENT_SECRET: mock.credentials.clientSecret,
      REDIS_URL: redis.url,
      REDIS_LIBRARY: library.name,
      REDIS_PREFIX: `replicas-${library.name}:`,
    }));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await api?.close();
  });

  const everyReplica = (n: number) =>
    Promise.all(replicas.map((replica) => replica.ask<Answer>({ op: 'calls', n }, 30_000)));

  it(`${REPLICAS} replicas starting at once, ${CALLS} calls each: one POST /auth in total`, async () => {
    const answers = await everyReplica(CALLS);
    expect(answers.map((a) => a.failed)).toEqual(replicas.map(() => []));
    expect(answers.map((a) => a.ok)).toEqual(replicas.map(() => CALLS));
    expect(answers.flatMap((a) => a.warnings)).toEqual([]);
    expect(mock.stats.logins).toBe(1);
    expect(mock.stats.requests).toBe(1 + REPLICAS * CALLS);
  }, 60_000);

  it('a client token refused by the service: one re-login for the fleet', async () => {
    const before = mock.stats.logins;
    mock.expireTokens();
    const answers = await everyReplica(25);
    expect(answers.map((a) => a.ok)).toEqual(replicas.map(() => 25));
    expect(answers.flatMap((a) => a.warnings)).toEqual([]);
    expect(mock.stats.logins - before).toBe(1);
  }, 60_000);

  it('Redis stopped in the middle: each replica logs in on its own with a warning, no call fails; back, the fleet shares again', async () => {
    await redis.stop();
    try {
      const before = mock.stats.logins;
      mock.expireTokens();
      const answers = await everyReplica(25);
      expect(answers.map((a) => a.failed)).toEqual(replicas.map(() => []));
      // One local login per replica (single-flight within each), never one per call.
      expect(mock.stats.logins - before).toBe(REPLICAS);
      for (const answer of answers) {
        expect(answer.warnings).toEqual([
          expect.stringMatching(/Redis token store unavailable.*logging in from this process/),
        ]);
      }
    } finally {
      await redis.start();
    }
    // The clients reconnect on their own; the first renewal after that is shared again.
    const pongs = await Promise.all(replicas.map((replica) => replica.ask({ op: 'ping' })));
    expect(pongs).toEqual(replicas.map(() => ({ pong: true })));
    const before = mock.stats.logins;
    mock.expireTokens();
    const answers = await everyReplica(25);
    expect(answers.map((a) => a.failed)).toEqual(replicas.map(() => []));
    expect(mock.stats.logins - before).toBe(1);
  }, 60_000);
});
