/**
 * The pagination guide's "a list that changes during a walk", against the testing kit's loopback
 * server: a seller walks their anticipations (newest first) while another anticipation is confirmed
 * between two pages, which puts the new one at the head and pushes every later one a place on.
 */

import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function sellerOnKit() {
  const mock = createMockPartnerApi();
  const server = await mock.listen();
  closers.push(() => server.close());
  const client = new PartnerClient({
    baseUrl: server.url,
    clientToken: mock.credentials.clientToken,
    logLevel: 'off',
  });
  return { mock, seller: client.forUser(mock.sellers.person.publicToken) };
}

/** An anticipation as a walk sees it: its hash, or its content where the kit sends no hash. */
const identity = (a: object & { hash?: string | null }) => a.hash ?? JSON.stringify(a);

describe('a walk over anticipations while one is confirmed', () => {
  it('passes every anticipation that was there once, a shifted one without a hash included', async () => {
    const { mock, seller } = await sellerOnKit();
    const before = (await seller.anticipations.list({ per_page: 100 })).data.map(identity);
    expect(before.length).toBeGreaterThan(8);
    mock.advanceClock(10 * 60_000); // past the service's cache of that first read
    const seen: string[] = [];
    for await (const anticipation of seller.anticipations.list({ per_page: 4 })) {
      seen.push(identity(anticipation));
      if (seen.length === 4) {
        // The fourth of the history has no hash: only its content tells it is the same one.
        expect(anticipation.hash).toBeNull();
        await seller.anticipations.confirm(mock.anticipations.confirmable[0]!, {
          scenario: 'above',
        });
      }
    }
    expect(seen).toEqual(before);
  });
});
