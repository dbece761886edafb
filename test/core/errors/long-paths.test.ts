/**
 * A path parameter has no length the spec bounds, so a partner may pass a megabyte as a hash (a
 * file read into the wrong variable). The error's message names the request without carrying the
 * whole of it; `err.path` keeps it whole for a program that wants it.
 */

import { describe, expect, it } from 'vitest';
import { APIError, PartnerClient } from '../../../src/index';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

/** A client of a server that answers every call 404, failing at once. */
async function clientOfNotFound(): Promise<PartnerClient> {
  const server = await stub((_req, res) => json(res, 404, { message: 'Not found.' }));
  return new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'long-path-token',
    logLevel: 'off',
    maxRetries: 0,
  });
}

describe('an error of a call with a very long path', () => {
  it('cuts the path in its message, says its length, and keeps it whole on err.path', async () => {
    const client = await clientOfNotFound();
    const hash = 'x'.repeat(5_000);

    const error = await client.products.retrieve(hash).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIError);
    const { message, path } = error as APIError;
    expect(message.length).toBeLessThan(400);
    expect(message).toMatch(
      /^GET \/products\/x{190,}… \(a path of 5010 characters\) → 404 Not Found: Not found\.$/,
    );
    expect(path).toBe(`/products/${hash}`);
  });

  it('names a path of ordinary length whole', async () => {
    const client = await clientOfNotFound();
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect((error as APIError).message).toBe('GET /products/prd_1 → 404 Not Found: Not found.');
  });
});
