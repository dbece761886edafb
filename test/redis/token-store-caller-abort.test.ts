/**
 * A login shared through RedisTokenStore is nobody's call: when the caller whose call started it
 * aborts, that call ends at once, and the login runs on for every other caller, of this client and
 * of another process's, which all complete on that one login; it leaves no lock behind and stores
 * the whole token.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { APIUserAbortError, PartnerClient } from '../../src/index';
import { RedisTokenStore } from '../../src/redis/index';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing/index';
import { type Connection, libraries } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';
import { waitFor, withTimeout } from '../helpers/waits';

const redis = useRedisServer();

let prefixes = 0;

describe.each(libraries)('a shared login whose first caller aborts, over $name', (library) => {
  const open: Connection[] = [];
  const connect = async () => {
    const connection = await library.connect(redis.url);
    open.push(connection);
    return connection;
  };
  afterAll(async () => {
    await Promise.all(open.map((connection) => connection.close()));
  });

  /** A client of `mock` logging in through the store under `prefix`, on a connection of its own. */
  async function sharingClient(mock: MockPartnerApi, prefix: string) {
    const { client } = await connect();
    return new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientId: mock.credentials.clientId,
      clientSecret: mock.credentials.clientSecret,
      tokenStore: new RedisTokenStore(client, { prefix }),
      logLevel: 'off',
    });
  }

  it('serves the other callers on one login, and leaves the token whole and no lock', async () => {
    const mock = createMockPartnerApi();
    const prefix = `abort${process.pid}-${++prefixes}:`;
    const [first, other] = [await sharingClient(mock, prefix), await sharingClient(mock, prefix)];
    mock.failNext({ delayMs: 300, path: '/auth' });
    const controller = new AbortController();
    const aborted = first.products.list({}, { signal: controller.signal }).catch((e: unknown) => e);
    await waitFor(() => mock.requests.some((r) => r.path === '/auth'), 'the login to be sent');
    const patient = [first.products.list(), other.products.list()];
    controller.abort('caller gave up');
    const error = await withTimeout(aborted, 200, 'the aborted call');
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe('caller gave up');
    await withTimeout(Promise.all(patient), 5_000, 'the other callers');
    expect(mock.stats.logins).toBe(1);

    const { client: inspector } = await connect();
    const send = (args: string[]) =>
      'call' in inspector
        ? inspector.call(args[0]!, ...args.slice(1))
        : inspector.sendCommand(args);
    const keys = (await send(['KEYS', `${prefix}*`])) as string[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toMatch(/:lock$/);
    const sent = mock.requests.at(-1)?.headers['x-api-client-token'];
    expect(await send(['GET', keys[0]!])).toBe(sent);
  });
});
