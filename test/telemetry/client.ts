/** A client of the testing kit's mock (no socket) whose waits run on a virtual clock. */

import { clientOver, type PartnerClient } from '../../src/client';
import type { ClientOptions } from '../../src/core/options';
import { resolveOptions } from '../../src/core/options/resolve';
import { Transport } from '../../src/core/transport/engine';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing/index';
import { virtualClock } from '../helpers/virtual-clock';

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
