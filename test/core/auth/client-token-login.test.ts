import { describe, expect, it } from 'vitest';
import { AuthenticationError, PartnerClient } from '../../../src/index';
import { json, type StubServer, stubsClosedAfterEach, withLogin } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

const credentials = { clientId: 'client-id-1', clientSecret: 'client-secret-xyz' };
const logins = (s: StubServer) => s.requests.filter((r) => r.path === '/auth');
const calls = (s: StubServer) => s.requests.filter((r) => r.path !== '/auth');

describe('client-token login', () => {
  it('sends the documented login body and uses the token it returns', async () => {
    const server = await stub(withLogin((_req, res) => json(res, 200, { ok: true })));
    const client = new PartnerClient({ baseUrl: server.baseUrl, ...credentials });
    await client.request({ method: 'GET', path: '/products' });
    const [login] = logins(server);
    expect(login?.method).toBe('POST');
    expect(JSON.parse(login?.body ?? '{}')).toEqual({
      client_id: 'client-id-1',
      client_secret: 'client-secret-xyz',
    });
    expect(login?.headers['x-api-client-token']).toBeUndefined();
    expect(calls(server)[0]?.headers['x-api-client-token']).toBe('login-token-1');
  });

  it('reads the token from data.client_token too', async () => {
    const server = await stub((req, res) =>
      req.path === '/auth'
        ? json(res, 200, { status: 'success', data: { client_token: 'nested-token-1' } })
        : json(res, 200, {}),
    );
    const client = new PartnerClient({ baseUrl: server.baseUrl, ...credentials });
    await client.request({ method: 'GET', path: '/products' });
    expect(calls(server)[0]?.headers['x-api-client-token']).toBe('nested-token-1');
  });

  it('makes exactly one POST /auth for 100 concurrent first calls', async () => {
    const server = await stub(withLogin((_req, res) => json(res, 200, {})));
    const client = new PartnerClient({ baseUrl: server.baseUrl, ...credentials });
    await Promise.all(
      Array.from({ length: 100 }, () => client.request({ method: 'GET', path: '/products' })),
    );
    expect(logins(server)).toHaveLength(1);
    expect(calls(server)).toHaveLength(100);
  });

  it('on a 401 logs in once more and replays once, not counted as a retry', async () => {
    const server = await stub(
      withLogin((req, res) =>
        req.headers['x-api-client-token'] === 'login-token-1'
          ? json(res, 401, { message: 'Token expired.' })
          : json(res, 200, { ok: true }),
      ),
    );
    const client = new PartnerClient({ baseUrl: server.baseUrl, ...credentials, maxRetries: 0 });
    await expect(
      client.request({ method: 'POST', path: '/financial/refund/tx1' }),
    ).resolves.toEqual({ ok: true });
    expect(logins(server)).toHaveLength(2);
    expect(calls(server).map((r) => r.headers['x-api-client-token'])).toEqual([
      'login-token-1',
      'login-token-2',
    ]);
  });

  it('surfaces a second 401 as AuthenticationError without looping', async () => {
    const server = await stub(
      withLogin((_req, res) => json(res, 401, { message: 'Unauthenticated.' })),
    );
    const client = new PartnerClient({ baseUrl: server.baseUrl, ...credentials });
    const error = await client
      .request({ method: 'GET', path: '/products' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(logins(server)).toHaveLength(2);
    expect(calls(server)).toHaveLength(2);
  });

  it('re-logs in once for many concurrent calls refused with the same token', async () => {
    const server = await stub(
      withLogin((req, res) =>
        req.headers['x-api-client-token'] === 'login-token-1'
          ? json(res, 401, { message: 'Token expired.' })
          : json(res, 200, {}),
      ),
    );
    const client = new PartnerClient({ baseUrl: server.baseUrl, ...credentials });
    await Promise.all(
      Array.from({ length: 20 }, () => client.request({ method: 'GET', path: '/products' })),
    );
    expect(logins(server)).toHaveLength(2);
  });

  it('never refreshes a token handed in without credentials', async () => {
    const server = await stub((_req, res) => json(res, 401, { message: 'Unauthenticated.' }));
    const client = new PartnerClient({ baseUrl: server.baseUrl, clientToken: 'given-token-1' });
    await expect(client.request({ method: 'GET', path: '/products' })).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    expect(logins(server)).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });

  it('with a token and credentials, uses the token first and logs in when it is refused', async () => {
    const server = await stub(
      withLogin((req, res) =>
        req.headers['x-api-client-token'] === 'given-token-1'
          ? json(res, 401, { message: 'Token expired.' })
          : json(res, 200, {}),
      ),
    );
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'given-token-1',
      ...credentials,
    });
    await client.request({ method: 'GET', path: '/products' });
    await client.request({ method: 'GET', path: '/products' });
    expect(calls(server).map((r) => r.headers['x-api-client-token'])).toEqual([
      'given-token-1',
      'login-token-1',
      'login-token-1',
    ]);
    expect(logins(server)).toHaveLength(1);
  });

  it('asks a token function before each call and replays once when it yields a new token', async () => {
    let version = 1;
    const server = await stub((req, res) =>
      req.headers['x-api-client-token'] === 'fn-token-1' ? json(res, 401, {}) : json(res, 200, {}),
    );
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: async () => `fn-token-${version++}`,
    });
    await client.request({ method: 'GET', path: '/products' });
    expect(server.requests.map((r) => r.headers['x-api-client-token'])).toEqual([
      'fn-token-1',
      'fn-token-2',
    ]);
  });

  it('reports a refused login as AuthenticationError naming the credentials, without the secret', async () => {
    const server = await stub((req, res) =>
      req.path === '/auth'
        ? json(res, 401, { message: 'Invalid credentials.' })
        : json(res, 200, {}),
    );
    const client = new PartnerClient({ baseUrl: server.baseUrl, ...credentials });
    const error = await client
      .request({ method: 'GET', path: '/products' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(String(error)).toMatch(
      /login refused \(Invalid credentials\.\): check clientId and clientSecret, and that calls come from an IP address or domain registered for this client/,
    );
    expect(JSON.stringify(error)).not.toContain('client-secret-xyz');
  });
});

describe('headers', () => {
  it('sends X-Api-Client-Token only from the root client and adds the bearer on forUser', async () => {
    const server = await stub((_req, res) => json(res, 200, {}));
    const client = new PartnerClient({ baseUrl: server.baseUrl, clientToken: 'root-token-1' });
    await client.request({ method: 'GET', path: '/products' });
    await client.forUser('public-token-1').request({ method: 'GET', path: '/products' });
    await client
      .forUser(async () => 'public-token-2')
      .request({ method: 'GET', path: '/products' });
    const [root, seller, sellerFn] = server.requests;
    expect(root?.headers['x-api-client-token']).toBe('root-token-1');
    expect(root?.headers.authorization).toBeUndefined();
    expect(seller?.headers['x-api-client-token']).toBe('root-token-1');
    expect(seller?.headers.authorization).toBe('Bearer public-token-1');
    expect(sellerFn?.headers.authorization).toBe('Bearer public-token-2');
  });

  it('names the SDK and its version in User-Agent', async () => {
    const server = await stub((_req, res) => json(res, 200, {}));
    const client = new PartnerClient({ baseUrl: server.baseUrl, clientToken: 'root-token-1' });
    await client.request({ method: 'GET', path: '/products' });
    expect(server.requests[0]?.headers['user-agent']).toMatch(
      /^partner-sdk\/\d+\.\d+\.\d+ \(node /,
    );
  });

  it('hints at forUser when the root client gets a 401', async () => {
    const server = await stub((_req, res) => json(res, 401, { message: 'Unauthenticated.' }));
    const client = new PartnerClient({ baseUrl: server.baseUrl, clientToken: 'root-token-1' });
    await expect(
      client.request({ method: 'GET', path: '/users/fee-tiers/history' }),
    ).rejects.toThrow(/forUser/);
  });

  it('withOptions shares the token cache: no second login', async () => {
    const server = await stub(withLogin((_req, res) => json(res, 200, {})));
    const client = new PartnerClient({ baseUrl: server.baseUrl, ...credentials });
    await client.request({ method: 'GET', path: '/products' });
    const fast = client.withOptions({ timeout: 5_000, maxRetries: 0 });
    await fast.request({ method: 'GET', path: '/products' });
    await fast.forUser('public-token-1').request({ method: 'GET', path: '/products' });
    expect(logins(server)).toHaveLength(1);
    expect(fast).toBeInstanceOf(PartnerClient);
  });

  it('withOptions hands its tokens to its own child only: a client built next logs in anew', async () => {
    const server = await stub(withLogin((_req, res) => json(res, 200, {})));
    const client = new PartnerClient({ baseUrl: server.baseUrl, ...credentials });
    await client.request({ method: 'GET', path: '/products' });
    const child = client.withOptions({ maxRetries: 0 });
    const stranger = new PartnerClient({ baseUrl: server.baseUrl, ...credentials });
    await child.request({ method: 'GET', path: '/products' });
    await stranger.request({ method: 'GET', path: '/products' });
    expect(logins(server)).toHaveLength(2);
    // The child keeps its own options and passes them on to its own children.
    const grandchild = child.withOptions({ timeout: 5_000 });
    await grandchild.request({ method: 'GET', path: '/products' });
    expect(logins(server)).toHaveLength(2);
  });

  it('withOptions that changes the credentials does not share the token', async () => {
    const server = await stub(withLogin((_req, res) => json(res, 200, {})));
    const client = new PartnerClient({ baseUrl: server.baseUrl, ...credentials });
    await client.request({ method: 'GET', path: '/products' });
    const other = client.withOptions({ clientSecret: `${credentials.clientSecret}-2` });
    await other.request({ method: 'GET', path: '/products' });
    expect(logins(server)).toHaveLength(2);
  });

  it('refuses an empty public token', () => {
    const client = new PartnerClient({
      baseUrl: 'https://partner.example.com/api/v1',
      clientToken: 'tok-123456',
    });
    expect(() => client.forUser('')).toThrow(/publicToken/);
  });
});
