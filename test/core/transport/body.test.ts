/**
 * A body that arrives in many chunks is decoded chunk by chunk as it comes (so a large body's
 * decoding does not block the event loop at the end); a character split between two chunks, and
 * one split at the very end, still come out whole, in an ordinary body as in one past a megabyte.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { PartnerClient } from '../../../src/index';
import { type StubServer, startStub } from '../../helpers/stub-server';

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a body read in many chunks', () => {
  it.each([
    ['an ordinary body', 2_000],
    ['past a megabyte', 20_000],
  ])(
    'keeps every multi-byte character whole, wherever the chunks split it (%s)',
    async (_way, count) => {
      const name = 'Formação em vendas — à primeira venda, métricas e tráfego 🚀';
      const wire = Buffer.from(JSON.stringify({ name, items: Array(count).fill(name) }));
      server = await startStub(async (_request, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        // Odd-sized pieces, flushed apart, so that characters straddle the chunk boundaries.
        for (let at = 0; at < wire.length; at += 4_099) {
          res.write(wire.subarray(at, at + 4_099));
          await new Promise((resolve) => setImmediate(resolve));
        }
        res.end();
      });
      const client = new PartnerClient({
        baseUrl: server.baseUrl,
        clientToken: 'chunk-token-1',
        logLevel: 'off',
      });
      const body = (await client.request({ method: 'GET', path: '/chunked' })) as {
        name: string;
        items: string[];
      };
      expect(body.name).toBe(name);
      expect(body.items).toHaveLength(count);
      expect(body.items.every((item) => item === name)).toBe(true);
    },
  );
});
