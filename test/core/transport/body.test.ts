/**
 * A body that arrives in many chunks comes out whole: one of ordinary size is kept as bytes and
 * decoded once at the end, a very large one (a megabyte and more) is decoded chunk by chunk from
 * then on, so its decoding does not block the event loop at the end. Either way a character split
 * between two chunks, the switch between the two ways included, still comes out whole.
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
    ['decoded once at the end', 2_000],
    ['past a megabyte, decoded as it arrives', 20_000],
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
