/**
 * RedisTokenStore against a real redis-server, in one process, with each client library: the
 * lock, the expiry of every key, the prefix, a lock whose holder died, a slow and a stopped Redis.
 * Several processes sharing one Redis: token-replicas.test.ts.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { PartnerClient } from '../../src/index';
import { RedisTokenStore, type RedisTokenStoreOptions } from '../../src/redis/index';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing/index';
import { type Connection, libraries } from '../helpers/redis-libraries';
import { startRedisServer, useRedisServer } from '../helpers/redis-server';
import { waitFor } from '../helpers/waits';

const redis = useRedisServer();

let prefixes = 0;
const freshPrefix = () => `t${process.pid}-${++prefixes}:`;

function recordingLogger() {
  const warnings: string[] = [];
  const note = (message: unknown) => warnings.push(String(message));
  return { warnings, logger: { debug() {}, info() {}, warn: note, error: note } };
}

describe.each(libraries)('RedisTokenStore over $name', (library) => {
  const open: Connection[] = [];
  const connect = async (url = redis.url) => {
    const connection = await library.connect(url);
    open.push(connection);
    return connection;
  };
  afterAll(async () => {
    await Promise.all(open.map((connection) => connection.close()));
  });

  async function clients(
    count: number,
    mock: MockPartnerApi,
    options: RedisTokenStoreOptions,
    url = redis.url,
  ) {
    const log = recordingLogger();
    const made: PartnerClient[] = [];
    for (let i = 0; i < count; i++) {
      const { client } = await connect(url);
      made.push(
        new PartnerClient({
          baseUrl: mock.baseUrl,
          fetch: mock.fetch,
          clientId: mock.credentials.clientId,
          clientSecret: mock.credentials.clientSecret,
          tokenStore: new RedisTokenStore(client, options),
          logger: log.logger,
          maxRetries: 0,
        }),
      );
    }
    return { clients: made, warnings: log.warnings };
  }

  const callAll = (made: PartnerClient[], n: number) =>
    Promise.all(
      made.flatMap((client) =>
        Array.from({ length: n }, () => client.products.list({ per_page: 1 })),
      ),
    );

  it('gives clients on separate connections one login, and every key it writes an expiry under the prefix', async () => {
    const mock = createMockPartnerApi();
    const prefix = freshPrefix();
    const { clients: made, warnings } = await clients(4, mock, { prefix, tokenTtlMs: 60_000 });
    await callAll(made, 25);
    expect(mock.stats.logins).toBe(1);
    expect(warnings).toEqual([]);

    const { client: inspector } = await connect();
    const send = (args: string[]) =>
      'call' in inspector
        ? inspector.call(args[0]!, ...args.slice(1))
        : inspector.sendCommand(args);
    const keys = (await send(['KEYS', `${prefix}*`])) as string[];
    // The token only: the lock was released when the token was stored.
    expect(keys).toHaveLength(1);
    expect(keys[0]?.startsWith(`${prefix}{token:`)).toBe(true);
    const ttl = Number(await send(['PTTL', keys[0]!]));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    const sent = mock.requests.find((r) => r.path !== '/auth')?.headers['x-api-client-token'];
    expect(await send(['GET', keys[0]!])).toBe(sent);
  });

  it("keeps two accounts' tokens apart under one prefix: each account's clients log in once and send only its token", async () => {
    const prefix = freshPrefix();
    const accounts = [
      createMockPartnerApi({ clientId: 'account-a' }),
      createMockPartnerApi({ clientId: 'account-b' }),
    ];
    const made = await Promise.all(accounts.map((mock) => clients(2, mock, { prefix })));
    await Promise.all(made.map(({ clients: both }) => callAll(both, 25)));
    const sent = accounts.map(
      (mock) =>
        new Set(
          mock.requests
            .filter((r) => r.path !== '/auth')
            .map((r) => r.headers['x-api-client-token']),
        ),
    );
    for (const [index, mock] of accounts.entries()) {
      expect(mock.stats.logins).toBe(1);
      expect(sent[index]!.size).toBe(1);
      expect(made[index]!.warnings).toEqual([]);
    }
    expect([...sent[0]!][0]).not.toBe([...sent[1]!][0]);
  });

  it('renews a refused token once for every client, whichever was refused first', async () => {
    const mock = createMockPartnerApi();
    const { clients: made, warnings } = await clients(3, mock, { prefix: freshPrefix() });
    await callAll(made, 5);
    mock.expireTokens();
    await callAll(made, 20);
    // One at a time too: a client refused after another renewed picks up the renewed token.
    mock.expireTokens();
    for (const client of made) await client.products.list();
    expect(mock.stats.logins).toBe(3);
    expect(warnings).toEqual([]);
  });

  it('waits loginWaitMs for a lock whose holder died, then logs in itself with a warning', async () => {
    const mock = createMockPartnerApi();
    const prefix = freshPrefix();
    const { client: raw } = await connect();
    const key = `${prefix}{token:${mock.baseUrl} ${mock.credentials.clientId}}:lock`;
    const set = ['SET', key, 'a-dead-process', 'PX', '60000'];
    await ('call' in raw ? raw.call(set[0]!, ...set.slice(1)) : raw.sendCommand(set));
    const { clients: made, warnings } = await clients(2, mock, { prefix, loginWaitMs: 300 });
    const started = Date.now();
    await callAll(made, 5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // Each client waited, then logged in on its own: bounded, never stuck behind the dead lock.
    expect(mock.stats.logins).toBe(2);
    expect(warnings).toEqual([
      expect.stringMatching(/waiting 300 ms for another process's login/),
      expect.stringMatching(/waiting 300 ms for another process's login/),
    ]);
  });

  it('logs in from the process when Redis is slow (no answer within commandTimeoutMs)', async () => {
    // A server of its own: a paused server answers nothing, not even CLIENT UNPAUSE, so the
    // shared one would keep the next test waiting; this one is stopped instead.
    const slow = await startRedisServer();
    try {
      const mock = createMockPartnerApi();
      const { clients: made, warnings } = await clients(
        2,
        mock,
        { prefix: freshPrefix(), commandTimeoutMs: 200 },
        slow.url,
      );
      const { client: admin } = await connect(slow.url);
      const send = (args: string[]) =>
        'call' in admin ? admin.call(args[0]!, ...args.slice(1)) : admin.sendCommand(args);
      // Paused for longer than the test can last (the server is stopped after it): Redis answers
      // nothing until then, and a PING sent now tells whether it has answered anything yet.
      await send(['CLIENT', 'PAUSE', '120000', 'ALL']);
      let redisAnswered = false;
      void Promise.resolve(send(['PING'])).then(
        () => {
          redisAnswered = true;
        },
        () => undefined,
      );
      await callAll(made, 10);
      // Done while Redis was still paused: the calls did not wait for it.
      expect(redisAnswered).toBe(false);
      expect(mock.stats.logins).toBe(2);
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatch(
        /Redis token store unavailable \(Redis did not answer EVALSHA within 200 ms\)/,
      );
    } finally {
      await slow.close();
    }
  });

  it('releases a lock taken by a script that answered too late, so that no process waits behind it', async () => {
    const mock = createMockPartnerApi();
    const prefix = freshPrefix();
    const late = await clients(1, mock, { prefix, commandTimeoutMs: 200 });
    const { client: admin } = await connect();
    const send = (args: string[]) =>
      'call' in admin ? admin.call(args[0]!, ...args.slice(1)) : admin.sendCommand(args);
    // Writes wait until the pause ends: the lock script times out here but runs there later.
    await send(['CLIENT', 'PAUSE', '5000', 'WRITE']);
    await late.clients[0]!.products.list();
    // The client has given up on its script, which the pause still holds: end the pause (a write
    // pause lets CLIENT UNPAUSE through), and the script runs now, late.
    await send(['CLIENT', 'UNPAUSE']);
    expect(late.warnings[0]).toMatch(/Redis token store unavailable/);
    const lockKey = `${prefix}{token:${mock.baseUrl} ${mock.credentials.clientId}}:lock`;
    // The late scripts run once the pause ends: wait (bounded) for the lock to go.
    const held = async () => Number(await send(['EXISTS', lockKey]));
    await waitFor(async () => (await held()) === 0, 'the lock to go', 2_500);
    expect(await held()).toBe(0);
    // A process starting now takes the lock at once: no wait, no warning, one login of its own
    // (a login made alone is never stored: only a lock holder's is).
    const fresh = await clients(1, mock, { prefix, loginWaitMs: 5_000 });
    await fresh.clients[0]!.products.list();
    expect(fresh.warnings).toEqual([]);
    expect(mock.stats.logins).toBe(2);
    const tokenKey = lockKey.slice(0, -':lock'.length);
    const sent = mock.requests.at(-1)?.headers['x-api-client-token'];
    expect(await send(['GET', tokenKey])).toBe(sent);
  });

  it('rejects a value that is not a Redis client, and bad durations, at construction', async () => {
    expect(() => new RedisTokenStore({} as never)).toThrow(TypeError);
    const { client } = await connect();
    expect(() => new RedisTokenStore(client, { tokenTtlMs: 0 })).toThrow(RangeError);
    expect(() => new RedisTokenStore(client, { commandTimeoutMs: Number.NaN })).toThrow(RangeError);
    expect(() => new RedisTokenStore(client, { loginWaitMs: -1 })).toThrow(RangeError);
  });
});
