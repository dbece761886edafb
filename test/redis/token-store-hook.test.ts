/**
 * The core's `tokenStore` hook, with in-memory stores (no Redis): what the client asks of a
 * ClientTokenStore, and how it falls back when the store fails. The Redis store itself is tested
 * in token-store.test.ts and, across processes, in token-replicas.test.ts.
 */

import { describe, expect, it } from 'vitest';
import {
  type ClientTokenRequest,
  type ClientTokenStore,
  PartnerClient,
  PartnerError,
} from '../../src/index';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing/index';

function recordingLogger() {
  const warnings: string[] = [];
  const note = (message: unknown) => warnings.push(String(message));
  return { warnings, logger: { debug() {}, info() {}, warn: note, error: note } };
}

function clientOf(mock: MockPartnerApi, tokenStore: ClientTokenStore, logger = recordingLogger()) {
  return new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    clientId: mock.credentials.clientId,
    clientSecret: mock.credentials.clientSecret,
    tokenStore,
    logger: logger.logger,
    maxRetries: 0,
  });
}

/** A store shared in memory: what a Redis store does across processes, without the processes. */
function memoryStore() {
  const requests: ClientTokenRequest[] = [];
  let stored: string | undefined;
  let inflight: Promise<string> | undefined;
  const store: ClientTokenStore = {
    obtain(request) {
      requests.push(request);
      if (stored === request.refused) stored = undefined;
      if (stored !== undefined) return Promise.resolve(stored);
      inflight ??= request.login().then(
        (token) => {
          stored = token;
          inflight = undefined;
          return token;
        },
        (error: unknown) => {
          inflight = undefined;
          throw error;
        },
      );
      return inflight;
    },
  };
  return { store, requests };
}

const list = (client: PartnerClient, n: number) =>
  Promise.all(Array.from({ length: n }, () => client.products.list({ per_page: 1 })));

describe('tokenStore: the client side of a shared token cache', () => {
  it('lets clients that share a store log in once between them, and asks it once per client', async () => {
    const mock = createMockPartnerApi();
    const { store, requests } = memoryStore();
    const [a, b, c] = [clientOf(mock, store), clientOf(mock, store), clientOf(mock, store)];
    await Promise.all([list(a, 50), list(b, 50), list(c, 50)]);
    await Promise.all([list(a, 10), list(b, 10), list(c, 10)]);
    expect(mock.stats.logins).toBe(1);
    // Once per client: later calls use the token each client keeps, not the store.
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.key)).size).toBe(1);
    expect(requests[0]?.key).toContain(mock.credentials.clientId);
    expect(requests[0]?.key).not.toContain(mock.credentials.clientSecret);
    expect(requests.every((r) => r.refused === undefined)).toBe(true);
  });

  it('names different accounts and services by different keys', async () => {
    const mock = createMockPartnerApi();
    const keys: string[] = [];
    const store: ClientTokenStore = {
      obtain: (request) => {
        keys.push(request.key);
        return request.login();
      },
    };
    const base = { fetch: mock.fetch, clientSecret: 's', tokenStore: store, maxRetries: 0 };
    const clients = [
      new PartnerClient({ ...base, baseUrl: 'https://a.example/api/v1', clientId: 'one' }),
      new PartnerClient({ ...base, baseUrl: 'https://a.example/api/v1', clientId: 'two' }),
      new PartnerClient({ ...base, baseUrl: 'https://b.example/api/v1', clientId: 'one' }),
    ];
    await Promise.all(clients.map((client) => client.products.list().catch(() => undefined)));
    expect(new Set(keys).size).toBe(3);
  });

  it('after a 401 hands the store the refused token and replays with the one it returns, without logging in', async () => {
    const mock = createMockPartnerApi();
    const { store, requests } = memoryStore();
    const [a, b] = [clientOf(mock, store), clientOf(mock, store)];
    await Promise.all([list(a, 5), list(b, 5)]);
    const first = mock.requests.find((r) => r.path !== '/auth')?.headers['x-api-client-token'];
    expect(first).toBeTruthy();
    mock.expireTokens();
    await list(a, 20);
    await list(b, 20);
    expect(mock.stats.logins).toBe(2);
    const renewals = requests.filter((r) => r.refused !== undefined);
    expect(renewals.map((r) => r.refused)).toEqual([first, first]);
  });

  it('logs in from this process and warns when the store fails; the call succeeds', async () => {
    const mock = createMockPartnerApi();
    const log = recordingLogger();
    const store: ClientTokenStore = {
      obtain: () => Promise.reject(new Error('connection refused by 127.0.0.1:6379')),
    };
    const client = clientOf(mock, store, log);
    await list(client, 20);
    expect(mock.stats.logins).toBe(1);
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toMatch(
      /token store failed.*connection refused.*logging in from this process/,
    );
    expect(log.warnings.join()).not.toContain(mock.credentials.clientSecret);
  });

  it("logs in from this process and warns when the store does not answer within the client's timeout; later calls keep that token", async () => {
    const mock = createMockPartnerApi();
    const log = recordingLogger();
    const store: ClientTokenStore = { obtain: () => new Promise<string>(() => {}) };
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientId: mock.credentials.clientId,
      clientSecret: mock.credentials.clientSecret,
      tokenStore: store,
      logger: log.logger,
      timeout: 200,
      totalTimeout: 5_000,
    });
    await list(client, 3);
    await list(client, 3);
    expect(mock.stats.logins).toBe(1);
    expect(log.warnings).toEqual([
      expect.stringMatching(
        /token store did not answer within 200 ms.*logging in from this process/,
      ),
    ]);
  });

  it('waits for the login a stalled store started instead of logging in a second time', async () => {
    const mock = createMockPartnerApi();
    const log = recordingLogger();
    const store: ClientTokenStore = {
      obtain: (request) => {
        void request.login();
        return new Promise<string>(() => {});
      },
    };
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientId: mock.credentials.clientId,
      clientSecret: mock.credentials.clientSecret,
      tokenStore: store,
      logger: log.logger,
      timeout: 200,
      totalTimeout: 5_000,
    });
    await list(client, 3);
    expect(mock.stats.logins).toBe(1);
  });

  it('logs in from this process when the store answers no usable token', async () => {
    for (const answer of ['', undefined, 42]) {
      const mock = createMockPartnerApi();
      const log = recordingLogger();
      const store = { obtain: async () => answer } as unknown as ClientTokenStore;
      await list(clientOf(mock, store, log), 3);
      expect(mock.stats.logins).toBe(1);
      expect(log.warnings[0]).toMatch(/no usable token/);
    }
  });

  it('never accepts the refused token back from the store', async () => {
    const mock = createMockPartnerApi();
    const log = recordingLogger();
    let stale: string | undefined;
    const store: ClientTokenStore = {
      obtain: async (request) => {
        stale ??= await request.login();
        return stale;
      },
    };
    const client = clientOf(mock, store, log);
    await list(client, 1);
    mock.expireTokens();
    await list(client, 1);
    expect(mock.stats.logins).toBe(2);
    expect(log.warnings[0]).toMatch(/no usable token/);
  });

  it("answering another account's token to 100 calls at once: each is refused once, and one login from this process serves them all", async () => {
    const mock = createMockPartnerApi();
    const log = recordingLogger();
    const asked: ClientTokenRequest[] = [];
    const store: ClientTokenStore = {
      obtain: async (request) => {
        asked.push(request);
        return 'another-accounts-client-token';
      },
    };
    const client = clientOf(mock, store, log);
    await expect(list(client, 100)).resolves.toHaveLength(100);
    expect(mock.stats.logins).toBe(1);
    expect(asked.map((request) => request.refused)).toEqual([
      undefined,
      'another-accounts-client-token',
    ]);
    const sent = mock.requests.filter((r) => r.path === '/products');
    expect(sent).toHaveLength(200);
    const refused = sent.filter(
      (r) => r.headers['x-api-client-token'] === 'another-accounts-client-token',
    );
    expect(refused).toHaveLength(100);
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toMatch(/no usable token/);
  });

  it('holding a token the service has since expired: 100 calls at once renew it through the store once, with no login of their own', async () => {
    const mock = createMockPartnerApi();
    const log = recordingLogger();
    const { store, requests } = memoryStore();
    await list(clientOf(mock, store, log), 1);
    mock.expireTokens();
    // Another process of the fleet, its client made after the token expired, shares the store.
    await expect(list(clientOf(mock, store, log), 100)).resolves.toHaveLength(100);
    expect(mock.stats.logins).toBe(2);
    expect(requests.filter((request) => request.refused !== undefined)).toHaveLength(1);
    expect(log.warnings).toEqual([]);
  });

  it("still takes the fleet's token from the store while its own login waits out a long Retry-After", async () => {
    const mock = createMockPartnerApi();
    mock.failNext({ status: 429, retryAfter: 120, path: '/auth' });
    let stored: string | undefined;
    const store: ClientTokenStore = {
      obtain: async (request) => stored ?? request.login(),
    };
    const client = clientOf(mock, store);
    await expect(client.products.list()).rejects.toMatchObject({ retryAfterMs: 120_000 });
    // Another replica logged in meanwhile and stored its token.
    stored = mock.credentials.clientToken;
    await expect(client.products.list()).resolves.toBeDefined();
    expect(mock.stats.logins).toBe(1);
  });

  it('surfaces a refused login as it is, without a second login from the fallback', async () => {
    const mock = createMockPartnerApi();
    const log = recordingLogger();
    const { store } = memoryStore();
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientId: mock.credentials.clientId,
      clientSecret: 'not-the-secret',
      tokenStore: store,
      logger: log.logger,
      maxRetries: 0,
    });
    await expect(client.products.list()).rejects.toThrow(/login refused/);
    expect(mock.stats.logins).toBe(1);
    expect(log.warnings).toEqual([]);
  });

  it('rejects a tokenStore without credentials or without obtain at construction', () => {
    const store = memoryStore().store;
    expect(
      () =>
        new PartnerClient({ baseUrl: 'https://a.example', clientToken: 't', tokenStore: store }),
    ).toThrow(PartnerError);
    expect(
      () =>
        new PartnerClient({
          baseUrl: 'https://a.example',
          clientId: 'i',
          clientSecret: 's',
          tokenStore: {} as ClientTokenStore,
        }),
    ).toThrow(/tokenStore.*obtain/);
  });
});
