/**
 * The authentication guide's words on when a login happens: "Nothing is sent at construction",
 * a seller client "never logs in again", and "Changing `baseUrl` or a credential gives a client
 * with its own token" (the credentials case is in client-token-login.test.ts), against the
 * testing kit on loopback.
 */

import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../../src/index';
import { createMockPartnerApi, type MockPartnerApi } from '../../../src/testing/index';
import { serversClosedAfterEach } from '../../helpers/leak-check';

const { mockApi } = serversClosedAfterEach();

const loginClient = (mock: MockPartnerApi, baseUrl: string) =>
  new PartnerClient({
    baseUrl,
    clientId: mock.credentials.clientId,
    clientSecret: mock.credentials.clientSecret,
    logLevel: 'off',
  });

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
