import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../src';
import { createMockPartnerApi } from '../../src/testing';

describe('mock.credentials', () => {
  it('spread whole, makes a client that logs in at POST /auth, as a partner service does', async () => {
    const mock = createMockPartnerApi();
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      ...mock.credentials,
    });
    await client.products.list({ per_page: 1 });
    expect(mock.stats.logins).toBe(1);
    expect(Object.keys(mock.credentials).sort()).toEqual(['clientId', 'clientSecret']);
  });

  it('still offers the ready token by name, which skips the login', async () => {
    const mock = createMockPartnerApi();
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientToken: mock.credentials.clientToken,
    });
    await client.products.list({ per_page: 1 });
    expect(mock.stats.logins).toBe(0);
    expect(mock.stats.requests).toBe(1);
  });
});
