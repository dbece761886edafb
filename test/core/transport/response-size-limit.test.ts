/**
 * A response body is bounded by `maxResponseBytes` (client and per call),
 * counted on the decoded stream while reading, failing with a typed error and cancelling the body.
 */

import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { PartnerClient, PartnerError, ResponseTooLargeError } from '../../../src/index';
import { type StubServer, startStub } from '../../helpers/stub-server';

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MiB = 1024 * 1024;

/** Answers each request with a JSON string of `total` bytes in 64 KiB chunks, noting a client that hangs up early. */
async function hugeBody(total: number) {
  const state = { sent: 0, cutShort: false };
  server = await startStub(async (_req, res, raw) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    raw.socket.on('close', () => {
      if (state.sent < total) state.cutShort = true;
    });
    res.write('"');
    state.sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    while (state.sent < total && !res.destroyed) {
      state.sent += chunk.length;
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end('"');
  });
  return state;
}

const clientFor = (s: StubServer, maxResponseBytes?: number) =>
  new PartnerClient({
    baseUrl: s.baseUrl,
    clientToken: 'size-token-1',
    logLevel: 'off',
    ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
  });

describe('maxResponseBytes', () => {
  it('stops a body over the client bound with ResponseTooLargeError and hangs up', async () => {
    const state = await hugeBody(64 * MiB);
    const error = await clientFor(server!, MiB)
      .request({ method: 'GET', path: '/products' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(PartnerError);
    expect((error as ResponseTooLargeError).limit).toBe(MiB);
    await expect.poll(() => state.cutShort, { timeout: 5_000 }).toBe(true);
    expect(state.sent).toBeLessThan(64 * MiB);
    // Not retried: a repeat would be as large.
    expect(server!.requests).toHaveLength(1);
  });

  it('takes a per-call bound over the client one', async () => {
    await hugeBody(2 * MiB);
    const client = clientFor(server!, 64 * MiB);
    await expect(
      client.request({ method: 'GET', path: '/x' }, { maxResponseBytes: 512 * 1024 }),
    ).rejects.toBeInstanceOf(ResponseTooLargeError);
    await expect(client.request({ method: 'GET', path: '/x' })).resolves.toHaveLength(2 * MiB);
  });

  it('counts the decoded bytes: a small gzip that inflates past the default 32 MiB fails', async () => {
    const bomb = gzipSync(Buffer.alloc(40 * MiB, ' '));
    expect(bomb.length).toBeLessThan(MiB);
    server = await startStub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    await expect(
      clientFor(server).request({ method: 'GET', path: '/products' }),
    ).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('refuses a bound that is not a positive whole number at construction', () => {
    expect(
      () =>
        new PartnerClient({ baseUrl: 'http://127.0.0.1:1', clientToken: 't', maxResponseBytes: 0 }),
    ).toThrow(/maxResponseBytes/);
  });
});
