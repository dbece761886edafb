/** A mock service and clients for the bulk tests (the kit's `.fetch` face: no socket). */

import { createMockPartnerApi, type MockPartnerApiSeed } from 'partner-sdk/testing';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';

export function setup(seed: MockPartnerApiSeed = {}) {
  const mock = createMockPartnerApi(seed);
  // The kit's pre-issued client token is not enumerable, so the spread of its credentials leaves
  // it out: given here, no login is among the requests the tests count.
  const { client, seller } = kitClients(mock, { clientToken: mock.credentials.clientToken });
  /** POSTs of refund requests the mock received, per transaction. */
  const refundPosts = (hash?: string) => refundPostsTo(mock, hash);
  /** The refunds the mock holds for a transaction (read without touching the request log's meaning). */
  const refundsOf = (hash: string) => seller.refunds.list(hash);
  return { mock, client, seller, refundPosts, refundsOf };
}

/** Every value of an async iterable, in order. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}
