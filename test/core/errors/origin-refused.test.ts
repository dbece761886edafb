/**
 * The authentication guide: "A call from elsewhere fails with `PermissionDeniedError`, whose message
 * names that rule", through a client against the testing kit with the origin rule switched on.
 */

import { describe, expect, it } from 'vitest';
import { PartnerClient, PermissionDeniedError } from '../../../src/index';
import { createMockPartnerApi } from '../../../src/testing/index';

describe('a call from an origin the service has not registered', () => {
  it('fails with PermissionDeniedError naming the registered-origin rule, sent once', async () => {
    const mock = createMockPartnerApi();
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientToken: mock.credentials.clientToken,
      logLevel: 'off',
    });
    mock.setOriginAllowed(false);
    const error = await client.products.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).status).toBe(403);
    expect(String(error)).toMatch(/IP addresses and domains registered for this client/);
    expect(mock.requests).toHaveLength(1);
  });
});
