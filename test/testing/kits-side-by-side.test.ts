/**
 * Kits as a partner's CI runs them: many at once in one process (a test runner's worker running
 * files and tests side by side), each listening on its own port, none seeing another's changes,
 * each seeded alike; a fresh kit per test cheap enough for a suite of thousands; and once closed,
 * nothing of a kit's left to keep the process alive.
 */
import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { activeHandles, expectNothingLeft } from '../helpers/leak-check';

/** What a test names from a kit, and the first page of its catalogue as a client reads it. */
async function seededView(mock: MockPartnerApi) {
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
    logLevel: 'off',
  });
  const page = await client.products.list({ per_page: 50 });
  const { sellers, products, transactions, bankAccounts, anticipations } = mock;
  return { sellers, products, transactions, bankAccounts, anticipations, page: page.data };
}

describe('kits side by side', () => {
  it('listen on ports of their own, keep their state apart and seed the same data', async () => {
    const before = activeHandles();
    const kits = Array.from({ length: 8 }, () => createMockPartnerApi());
    const servers = await Promise.all(kits.map((mock) => mock.listen()));
    expect(new Set(servers.map((s) => new URL(s.url).port)).size).toBe(kits.length);
    // The same seeded transaction refunded on every kit at once: each kit's is a first request.
    const results = await Promise.all(
      kits.map((mock, i) => {
        const client = new PartnerClient({
          baseUrl: servers[i]!.url,
          ...mock.credentials,
          logLevel: 'off',
        });
        const seller = client.forUser(mock.sellers.person.publicToken);
        return seller.refunds.request(mock.transactions.refundable[0]!);
      }),
    );
    expect(results.map((r) => r.kind)).toEqual(kits.map(() => 'accepted'));
    expect(kits.map((mock) => mock.stats)).toEqual(
      kits.map(() => ({ requests: 2, logins: 1, rateLimited: 0 })),
    );
    const [first, ...rest] = await Promise.all(kits.map(seededView));
    for (const view of rest) expect(view).toEqual(first);
    await Promise.all(servers.map((s) => s.close()));
    await expectNothingLeft(before);
  });

  it('200 kits created, listening and closed one after another (a kit per test) leave nothing open', {
    timeout: 60_000,
  }, async () => {
    // A partner's suite makes a kit per test (the guide's pattern): what each leaves adds up.
    // How long a cycle takes is the bench's to measure, not a test's to assert.
    const before = activeHandles();
    for (let i = 0; i < 200; i++) {
      const server = await createMockPartnerApi().listen();
      await server.close();
    }
    await expectNothingLeft(before);
  });
});
