/**
 * The per-attempt `timeout` bounds the whole attempt, body included: headers
 * then a stalled body must not hold the call until `totalTimeout`.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, PartnerClient } from '../../../src/index';
import { json, type StubServer, startStub } from '../../helpers/stub-server';

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers the first request with headers and half a body, then nothing; later ones in full. */
async function stallFirstBody(): Promise<StubServer> {
  let calls = 0;
  return startStub((_req, res) => {
    if (calls++ === 0) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"hash":"prd_1",');
      return;
    }
    json(res, 200, { hash: 'prd_1', name: 'Curso' });
  });
}

describe('a body that stalls after the headers', () => {
  it('ends the attempt at its timeout and retries it, well within totalTimeout', async () => {
    server = await stallFirstBody();
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'stall-token-1',
      logLevel: 'off',
      timeout: 300,
      totalTimeout: 60_000,
      maxRetries: 1,
    });
    await expect(client.products.retrieve('prd_1')).resolves.toMatchObject({ name: 'Curso' });
    expect(server.requests).toHaveLength(2);
  }, 10_000);

  it('without retries, fails with APIConnectionTimeoutError at the attempt timeout', async () => {
    server = await stallFirstBody();
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'stall-token-1',
      logLevel: 'off',
      timeout: 300,
      totalTimeout: 60_000,
      maxRetries: 0,
    });
    await expect(client.products.retrieve('prd_1')).rejects.toBeInstanceOf(
      APIConnectionTimeoutError,
    );
  }, 10_000);
});
