/**
 * A client of the testing kit's mock (no socket) whose waits run on a virtual clock, and a fetch
 * that loses a refund request.
 */

import { clientOver, type PartnerClient } from '../../src/client';
import type { ClientOptions } from '../../src/core/options';
import { resolveOptions } from '../../src/core/options/resolve';
import { Transport } from '../../src/core/transport/engine';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing/index';
import { virtualClock } from './virtual-clock';

export interface Kit {
  mock: MockPartnerApi;
  client: PartnerClient;
  seller: ReturnType<PartnerClient['forUser']>;
}

/** The mock, a client of it logging in with its credentials, and its person seller. */
export function kit(options: ClientOptions = {}, mock = createMockPartnerApi()): Kit {
  const all: ClientOptions = {
    baseUrl: mock.baseUrl,
    fetch: options.fetch ?? mock.fetch,
    clientId: mock.credentials.clientId,
    clientSecret: mock.credentials.clientSecret,
    logLevel: 'off',
    ...options,
  };
  const client = clientOver(new Transport(resolveOptions(all), undefined, virtualClock()), all);
  return { mock, client, seller: client.forUser(mock.sellers.person.publicToken) };
}

/**
 * The mock's fetch, except that the `nth` refund request (a POST to `/financial/refund/…`) is lost
 * to a reset connection: on its way, the service never seeing it (`lost: 'request'`), or after the
 * mock acted on it (`lost: 'answer'`). With `readsFail`, every read of a transaction's refunds
 * answers 500.
 */
export function losingRefundPost(
  mock: MockPartnerApi,
  {
    lost,
    nth = 1,
    readsFail = false,
  }: { lost: 'request' | 'answer'; nth?: number; readsFail?: boolean },
): typeof fetch {
  let posts = 0;
  return async (input: Request | URL | string, init?: RequestInit) => {
    const request = new Request(input, init);
    const refunds = new URL(request.url).pathname.includes('/financial/refund/');
    if (refunds && request.method === 'GET' && readsFail) {
      return Response.json({ message: 'Server Error' }, { status: 500 });
    }
    const losing = refunds && request.method === 'POST' && ++posts === nth;
    if (losing && lost === 'request') throw reset();
    const answer = await mock.fetch(request);
    if (losing) throw reset();
    return answer;
  };
}

const reset = () => new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
