import { PartnerClient } from '../../src';
import { createMockPartnerApi, type MockPartnerApiSeed } from '../../src/testing';

/**
 * A fresh testing kit and a seller client on it (the kit's `as` seller: `person` or `company`),
 * with no retries and no logs, so each contract case sees exactly one answer. `seed` configures
 * the kit (its unstated rules, its shapes); `client` makes the other seller's client.
 */
export function sellerOnKit(as: 'person' | 'company' = 'person', seed: MockPartnerApiSeed = {}) {
  const mock = createMockPartnerApi(seed);
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    clientToken: mock.credentials.clientToken,
    maxRetries: 0,
    logLevel: 'off',
  });
  return { mock, client, seller: client.forUser(mock.sellers[as].publicToken) };
}
