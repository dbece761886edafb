/**
 * The authentication guide's words on when a login happens: "Nothing is sent at construction",
 * a seller client "never logs in again", and "Changing `baseUrl` or a credential gives a client
 * with its own token" (the credentials case is in client-token-login.test.ts), against the
 * testing kit on loopback; and what a service sharing one client between its requests relies on:
 * a `withOptions` client shares the token, never the options, and sellers share nothing of theirs.
 */

import { describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, PartnerClient } from '../../../src/index';
import { createMockPartnerApi, type MockPartnerApi } from '../../../src/testing/index';
import { serversClosedAfterEach } from '../../helpers/leak-check';

const { mockApi } = serversClosedAfterEach();

const loginOptions = (mock: MockPartnerApi, baseUrl: string) => ({
  baseUrl,
  clientId: mock.credentials.clientId,
  clientSecret: mock.credentials.clientSecret,
  logLevel: 'off' as const,
});
const loginClient = (mock: MockPartnerApi, baseUrl: string) =>
  new PartnerClient(loginOptions(mock, baseUrl));

describe('when the SDK logs in', () => {
  it('sends nothing at construction, not even with credentials', async () => {
    const mock = createMockPartnerApi();
    let sent = 0;
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      clientId: mock.credentials.clientId,
      clientSecret: mock.credentials.clientSecret,
      fetch: (input, init) => {
        sent += 1;
        return mock.fetch(input, init);
      },
      logLevel: 'off',
    });
    client.forUser(mock.sellers.person.publicToken);
    client.withOptions({ timeout: 5_000 });
    expect(sent).toBe(0);
    await client.products.list();
    expect(mock.stats.logins).toBe(1);
  });

  it('logs in once for a hundred seller clients made one per request', async () => {
    const mock = createMockPartnerApi();
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientId: mock.credentials.clientId,
      clientSecret: mock.credentials.clientSecret,
      logLevel: 'off',
    });
    await Promise.all(
      Array.from({ length: 100 }, () =>
        client.forUser(mock.sellers.person.publicToken).feeTiers.history(),
      ),
    );
    expect(mock.stats.logins).toBe(1);
  });

  it('gives a withOptions client on another baseUrl a token of its own', async () => {
    const first = await mockApi();
    const second = await mockApi();
    const client = loginClient(first.mock, first.server.url);
    await client.products.list();
    const moved = client.withOptions({ baseUrl: second.server.url });
    await moved.products.list();
    await client.products.list();
    expect(first.mock.stats.logins).toBe(1);
    expect(second.mock.stats.logins).toBe(1);
  });
});

describe('a client shared by every request of a service', () => {
  it("gives a withOptions({ timeout }) client its parent's login, not two, and never its options", async () => {
    const { mock, server } = await mockApi();
    const client = new PartnerClient({
      ...loginOptions(mock, server.url),
      defaultHeaders: { 'x-caller': 'parent' },
    });
    const fast = client.withOptions({
      timeout: 100,
      maxRetries: 0,
      defaultHeaders: { 'x-caller': 'fast' },
    });
    await Promise.all([fast.products.list(), client.products.list()]);
    // Slower than the derived client's time-out, well within the parent's.
    mock.setLatency(400);
    const [fastError, parentPage] = await Promise.all([
      fast.products.list().catch((error: unknown) => error),
      client.products.list(),
    ]);
    expect(fastError).toBeInstanceOf(APIConnectionTimeoutError);
    expect(parentPage.data.length).toBeGreaterThan(0);
    expect(mock.stats.logins).toBe(1);
    const calls = mock.requests.filter((r) => r.path === '/products');
    expect(calls.map((r) => r.headers['x-caller']).sort()).toEqual([
      'fast',
      'fast',
      'parent',
      'parent',
    ]);
    expect(new Set(calls.map((r) => r.headers['x-api-client-token'])).size).toBe(1);
  });

  it("sends every one of 1,000 interleaved calls of two sellers with its own seller's token, and gives each its own account's answer", async () => {
    const { mock, server } = await mockApi();
    const client = new PartnerClient(loginOptions(mock, server.url));
    const { person, company } = mock.sellers;
    const sellers = [
      { seller: person, client: client.forUser(person.publicToken) },
      // One token given as a function, as a partner reading it from its own store would.
      { seller: company, client: client.forUser(async () => company.publicToken) },
    ];
    const own = await Promise.all(sellers.map((s) => s.client.anticipations.list({ per_page: 5 })));
    expect(own[0]!.data).not.toEqual(own[1]!.data);
    const before = mock.requests.length;
    const pages = await Promise.all(
      Array.from({ length: 1_000 }, (_, call) =>
        sellers[call % 2]!.client.anticipations.list(
          { per_page: 5 },
          { headers: { 'x-call': String(call) } },
        ),
      ),
    );
    pages.forEach((page, call) => {
      expect(page.data).toEqual(own[call % 2]!.data);
    });
    const sent = mock.requests.slice(before);
    expect(sent).toHaveLength(1_000);
    for (const request of sent) {
      const { publicToken } = sellers[Number(request.headers['x-call']) % 2]!.seller;
      expect(request.headers.authorization).toBe(`Bearer ${publicToken}`);
    }
    expect(mock.stats.logins).toBe(1);
  });
});
