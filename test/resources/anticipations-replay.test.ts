/**
 * The errors guide on `anticipations.confirm`: "replayed only where the service cannot have acted:
 * a 429, or a connection refused or a name that did not resolve" — the connection failures, each
 * made by a fetch in front of the testing kit (the 429 and the 500 are in anticipations.test.ts).
 */

import { describe, expect, it } from 'vitest';
import { APIConnectionError, PartnerClient } from '../../src/index';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing/index';

const failed = (code: string) => new TypeError('fetch failed', { cause: { code } });

/**
 * A seller client of `mock` whose first confirmation fails with `code`: before reaching the
 * service (`reached: false`), or after the service acted on it and its answer was lost.
 */
function sellerFailingOnce(mock: MockPartnerApi, code: string, reached: boolean) {
  let failedOnce = false;
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    const request = new Request(input, init);
    const confirming = new URL(request.url).pathname.includes('/anticipation/confirm/');
    if (!confirming || failedOnce) return mock.fetch(request);
    failedOnce = true;
    if (reached) await mock.fetch(request);
    throw failed(code);
  };
  return new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch,
    clientToken: mock.credentials.clientToken,
    logLevel: 'off',
  }).forUser(mock.sellers.person.publicToken);
}

const confirmations = (mock: MockPartnerApi) =>
  mock.requests.filter((r) => r.path.startsWith('/financial/anticipation/confirm/'));

describe('anticipations.confirm after a connection failure', () => {
  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])(
    'is replayed after %s, which proves nothing reached the service',
    async (code) => {
      const mock = createMockPartnerApi();
      const [hash] = mock.anticipations.confirmable;
      const seller = sellerFailingOnce(mock, code, false);
      await expect(
        seller.anticipations.confirm(hash!, { scenario: 'above' }),
      ).resolves.toMatchObject({ status: 'approved' });
      expect(confirmations(mock)).toHaveLength(1);
    },
  );

  it('is not replayed after a reset, where the service may have acted: the connection error surfaces', async () => {
    const mock = createMockPartnerApi();
    const [hash] = mock.anticipations.confirmable;
    const seller = sellerFailingOnce(mock, 'ECONNRESET', true);
    const error = await seller.anticipations
      .confirm(hash!, { scenario: 'above' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(confirmations(mock)).toHaveLength(1);
  });
});
