/**
 * How errors name a call: by its path under `baseUrl`. A hop to `baseUrl` itself (a redirect or a
 * status URL pointing there) is named `/`, never an empty path (`GET  → 200`).
 */

import { afterEach, describe, expect, it } from 'vitest';
import { PartnerClient, ResponseValidationError } from '../../../src/index';
import { json, type StubServer, startStub } from '../../helpers/stub-server';

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the path an error names', () => {
  it('is / for a redirect to baseUrl itself, never empty', async () => {
    server = await startStub((request, res) => {
      if (request.path.startsWith('/products/')) {
        res.writeHead(302, { location: server!.baseUrl });
        res.end();
        return;
      }
      json(res, 200, { unexpected: true });
    });
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'path-token-1',
      logLevel: 'off',
      maxRetries: 0,
    });
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const { message, path } = error as ResponseValidationError;
    expect(path).toBe('/');
    expect(message).toMatch(/^GET \/ → 200 OK: /);
    expect(message).not.toContain('  ');
  });
});
