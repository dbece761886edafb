/**
 * A one-off script that used the Redis stores ends by itself once it has quit its Redis client: no
 * lease renewal, pace pause, lock poll or command time limit of the stores holds the event loop.
 */

import { randomUUID } from 'node:crypto';
import { PartnerClient } from 'partner-sdk';
import { RedisTokenStore } from 'partner-sdk/redis';
import { createMockPartnerApi, type MockPartnerApi, type MockServer } from 'partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit } from '../helpers/children';
import { ioredis, libraries } from '../helpers/redis-libraries';
import { type RedisServer, startRedisServer } from '../helpers/redis-server';
import { waitFor } from '../helpers/waits';

const EXIT_WITHIN_MS = 1_000;

let redis: RedisServer;
let mock: MockPartnerApi;
let server: MockServer;
beforeAll(async () => {
  redis = await startRedisServer();
  mock = createMockPartnerApi();
  server = await mock.listen();
}, 20_000);
afterAll(async () => {
  await server?.close();
  await redis?.close();
});

describe.each(libraries)('a script on the Redis stores over $name', (library) => {
  it('ends by itself at once after quitting its Redis client', async () => {
    mock.failNext({ status: 429, retryAfter: 1, path: '/products' });
    const { printed, exitCode, exitAfterMs } = await runToExit<{
      outcomes: unknown[];
      holding: string[];
    }>('test/redis/fixtures/stores-then-quit.ts', {
      BASE_URL: server.url,
      CLIENT_ID: mock.credentials.clientId,
      SECRET: mock.credentials.clientSecret,
      SELLER_TOKEN: mock.sellers.person.publicToken,
      TRANSACTIONS: [mock.addTransaction(), mock.addTransaction()].join(','),
      REDIS_URL: redis.url,
      REDIS_LIBRARY: library.name,
    });
    expect(printed.outcomes).toEqual([true, 200, 200, 2]);
    expect(
      { exitCode, holding: printed.holding, promptly: exitAfterMs < EXIT_WITHIN_MS },
      `ended ${Math.round(exitAfterMs)} ms after its last line`,
    ).toEqual({ exitCode: 0, holding: [], promptly: true });
  });
});

describe.each(libraries)('a script on RedisTokenStore over $name', (library) => {
  it.each(['abort', 'totalTimeout'])(
    'ends at once when its call gives up (%s) while another process holds the login',
    async (giveUp) => {
      // The other process: its login is slow, so it holds the shared login's lock meanwhile. It
      // answers only after the script has ended (its call is then given up here): a script that
      // starts slowly on a loaded machine must still find the lock held, not a fresh token.
      const prefix = `held-${randomUUID()}:`;
      const connection = await ioredis.connect(redis.url);
      const logins = mock.stats.logins;
      mock.failNext({ delayMs: 60_000, path: '/auth' });
      const givenUp = new AbortController();
      const other = new PartnerClient({
        baseUrl: server.url,
        clientId: mock.credentials.clientId,
        clientSecret: mock.credentials.clientSecret,
        logLevel: 'off',
        tokenStore: new RedisTokenStore(connection.client, { prefix }),
      });
      const othersCall = other.products.list({}, { signal: givenUp.signal });
      try {
        await waitFor(() => mock.stats.logins > logins, 'the other process to start its login');
        const { printed, exitCode, exitAfterMs } = await runToExit<{
          outcome: string;
          holding: string[];
        }>('test/redis/fixtures/login-wait-given-up.ts', {
          BASE_URL: server.url,
          CLIENT_ID: mock.credentials.clientId,
          SECRET: mock.credentials.clientSecret,
          REDIS_URL: redis.url,
          REDIS_LIBRARY: library.name,
          REDIS_PREFIX: prefix,
          GIVE_UP: giveUp,
        });
        expect(printed.outcome).toBe(
          giveUp === 'abort' ? 'APIUserAbortError' : 'APIConnectionTimeoutError',
        );
        expect(
          { exitCode, holding: printed.holding, promptly: exitAfterMs < EXIT_WITHIN_MS },
          `ended ${Math.round(exitAfterMs)} ms after its last line`,
        ).toEqual({ exitCode: 0, holding: [], promptly: true });
      } finally {
        givenUp.abort();
        await othersCall.catch(() => undefined);
        await connection.close();
      }
    },
    30_000,
  );
});
