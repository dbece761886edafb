/**
 * A client of the testing kit through the public API, on the kit's `.fetch` face (no socket), and
 * the same client acting for the kit's person seller: what most tests of refunds, bulk jobs and
 * queues start from.
 */

import { type ClientOptions, PartnerClient } from 'partner-sdk';
import type { MockPartnerApi } from 'partner-sdk/testing';

/**
 * `mock`'s client (its credentials, logging off, then `options`) and its person seller. It logs in
 * with the kit's client id and secret: the kit's pre-issued client token is not enumerable, so a
 * test that counts requests and wants no login passes `clientToken: mock.credentials.clientToken`.
 */
export function kitClients(mock: MockPartnerApi, options: ClientOptions = {}) {
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
    logLevel: 'off',
    ...options,
  });
  return { mock, client, seller: client.forUser(mock.sellers.person.publicToken) };
}

/**
 * {@link kitClients} over a socket to `baseUrl` (the kit's server, or a proxy in front of it), with
 * the kit's client token, so no login is among the requests.
 */
export function kitClientsAt(mock: MockPartnerApi, baseUrl: string) {
  return kitClients(mock, {
    baseUrl,
    fetch: globalThis.fetch,
    clientToken: mock.credentials.clientToken,
  });
}

/** The headers of a request straight to `mock`'s server as its person seller, past any SDK client. */
export function sellerHeaders(mock: MockPartnerApi): Record<string, string> {
  return {
    'x-api-client-token': mock.credentials.clientToken,
    authorization: `Bearer ${mock.sellers.person.publicToken}`,
  };
}

/** How many refund requests (POSTs) `mock` received for `hash`, or for any transaction. */
export function refundPostsTo(mock: MockPartnerApi, hash?: string): number {
  return mock.requests.filter(
    (r) =>
      r.method === 'POST' &&
      r.path.startsWith('/financial/refund/') &&
      (hash === undefined || r.path === `/financial/refund/${hash}`),
  ).length;
}
