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

describe('mock.sellers', () => {
  it('lists each seeded seller with code, type and publicToken, and names the person and the company', async () => {
    const mock = createMockPartnerApi();

    const listed = mock.sellers.map(({ code, type, publicToken }) => ({ code, type, publicToken }));
    const company = mock.sellers.find((seller) => seller.type === 'company');

    expect(listed.map((seller) => seller.type)).toEqual(['person', 'company']);
    expect([...mock.sellers]).toEqual(Object.values(mock.sellers));
    expect(mock.sellers[0]).toBe(mock.sellers.person);
    expect(company).toBe(mock.sellers.company);
    for (const seller of listed) {
      expect(seller.code).toMatch(/\S/);
      expect(seller.publicToken).toMatch(/\S/);
    }
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      ...mock.credentials,
    });
    await expect(client.forUser(mock.sellers[1].publicToken).feeTiers.history()).resolves.toEqual(
      expect.any(Array),
    );
  });
});
