/** A mock service and clients for the bulk tests (the kit's `.fetch` face: no socket). */

import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi, type MockPartnerApiSeed } from 'partner-sdk/testing';

export function setup(seed: MockPartnerApiSeed = {}) {
  const mock = createMockPartnerApi(seed);
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
    clientToken: mock.credentials.clientToken,
    logLevel: 'off',
  });
  const seller = client.forUser(mock.sellers.person.publicToken);
  /** POSTs of refund requests the mock received, per transaction. */
  const refundPosts = (hash?: string) =>
    mock.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path.startsWith('/financial/refund/') &&
        (hash === undefined || r.path === `/financial/refund/${hash}`),
    ).length;
  /** The refunds the mock holds for a transaction (read without touching the request log's meaning). */
  const refundsOf = async (hash: string) => {
    const refunds = await seller.refunds.list(hash);
    return refunds;
  };
  return { mock, client, seller, refundPosts, refundsOf };
}

/** Every value of an async iterable, in order. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}
