/**
 * Answers compressed the way servers and proxies compress them (`Content-Encoding` gzip, br,
 * deflate, zstd): read as their JSON; bounded by `maxResponseBytes` on the decoded size, a bomb
 * stopped at the bound; and a body that does not decode as its header says failing typed, saying
 * so, and keeping what it can.
 */

import {
  brotliCompressSync,
  deflateRawSync,
  deflateSync,
  gzipSync,
  zstdCompressSync,
} from 'node:zlib';
import { APIConnectionError, APIError, PartnerClient, ResponseTooLargeError } from 'partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type StubHandler, type StubServer, sequence, startStub } from '../../helpers/stub-server';
import { withTimeout } from '../../helpers/waits';

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MiB = 1024 * 1024;
const PRODUCT = {
  hash: 'prd_1',
  name: 'Curso de fotografia',
  description: Array.from({ length: 200 }, (_, i) => `aula ${(i * 7919) % 10007}`).join(', '),
  category_id: 12,
  refund_deadline: 7,
};

function answer(status: number, encoding: string, body: Uint8Array): StubHandler {
  return (_request, res) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-encoding': encoding });
    res.end(body);
  };
}

async function clientFor(handler: StubHandler, maxRetries = 0) {
  server = await startStub(handler);
  return new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'compressed-token-1',
    logLevel: 'off',
    maxRetries,
  });
}

/** `bytes` with a run of its compressed stream flipped from `from` on: a corrupt body. */
function corrupted(bytes: Uint8Array, from = 10): Uint8Array {
  const copy = Uint8Array.from(bytes);
  for (let i = from; i < from + 16; i++) copy[i]! ^= 0x5a;
  return copy;
}

const json = Buffer.from(JSON.stringify(PRODUCT));

describe('a compressed answer', () => {
  it.each([
    ['gzip', gzipSync(json)],
    ['br', brotliCompressSync(json)],
    ['deflate', deflateSync(json)],
    // Some servers send deflate without its zlib wrapper; fetch reads both.
    ['deflate', deflateRawSync(json)],
    ['zstd', zstdCompressSync(json)],
  ])('is read as its JSON under Content-Encoding %s', async (encoding, body) => {
    const client = await clientFor(answer(200, encoding, body));
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(PRODUCT);
  });

  it('is read through two encodings, in the order the header lists them', async () => {
    const client = await clientFor(answer(200, 'gzip, br', brotliCompressSync(gzipSync(json))));
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(PRODUCT);
  });
});

describe('a compression bomb', () => {
  it('of under 100 KB that decodes to 1 GiB is stopped at maxResponseBytes, in bounded memory', async () => {
    // 1024 gzip members of 1 MiB of spaces each (a gzip body may hold many), gzipped again.
    const member = gzipSync(Buffer.alloc(MiB, ' '));
    const bomb = gzipSync(Buffer.concat(Array.from({ length: 1024 }, () => member)));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const client = await clientFor(answer(200, 'gzip, gzip', bomb));

    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const error = await withTimeout(
      client.products.list().catch((e: unknown) => e),
      30_000,
      'the bomb to be stopped',
    ).finally(() => clearInterval(sampler));

    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limit).toBe(32 * MiB);
    // Reading it whole would take a gigabyte; the default bound's 32 MiB (and its text) far less.
    expect(peak - before).toBeLessThan(512 * MiB);
    expect(server!.requests).toHaveLength(1);
  });
});

describe('a body that does not decode as its Content-Encoding says', () => {
  it('fails typed, naming the status, the encoding and the decoder, never "fetch failed"', async () => {
    const client = await clientFor(answer(200, 'gzip', corrupted(gzipSync(json))));
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(
      /^GET \/products\/prd_1 → 200 OK, but its gzip body could not be decoded after \d+ bytes: Z_DATA_ERROR \(.+\)$/,
    );
  });

  it.each([
    ['br', brotliCompressSync, /ERR__ERROR_FORMAT_\w+/],
    ['zstd', zstdCompressSync, /ZSTD_error_\w+/],
  ])('names the %s decoder failure the same way', async (encoding, compress, code) => {
    const client = await clientFor(answer(200, encoding, corrupted(compress(json))));
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain(
      `200 OK, but its ${encoding} body could not be decoded`,
    );
    expect((error as Error).message).toMatch(code);
  });

  it('says so of a plain body labelled gzip', async () => {
    const client = await clientFor(answer(200, 'gzip', json));
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(
      /its gzip body could not be decoded after 0 bytes: Z_DATA_ERROR \(incorrect header check\)$/,
    );
  });

  it('is retried as an answer lost on the way where the call may be repeated', async () => {
    const client = await clientFor(
      sequence(answer(200, 'gzip', corrupted(gzipSync(json))), answer(200, 'gzip', gzipSync(json))),
      1,
    );
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(PRODUCT);
    expect(server!.requests).toHaveLength(2);
  });

  it('keeps on an error status the start that did decode', async () => {
    // A page long enough to decode in several chunks before the corruption is reached.
    const lines = Array.from(
      { length: 4000 },
      (_, i) => `<p>upstream error ${(i * 7919) % 10007}</p>`,
    );
    const page = `<html><body><h1>502 Bad Gateway</h1>${lines.join('')}`;
    const compressed = gzipSync(page);
    const client = await clientFor(
      answer(502, 'gzip', corrupted(compressed, Math.floor(compressed.length * 0.8))),
    );

    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(502);
    expect((error as APIError).message).toBe(
      'GET /products/prd_1 → 502 Bad Gateway: the service answered with an HTML page',
    );
    // What decoded before the decoder stopped: the page's start (a decoder may put out a few
    // garbled bytes before it notices the corruption), never the whole page.
    const kept = (error as APIError).body as string;
    const half = Math.floor(page.length / 2);
    expect(kept.slice(0, half)).toBe(page.slice(0, half));
    expect(kept.length).toBeLessThan(page.length);
  });
});

/**
 * Half a compressed stream, its connection ending cleanly (the `Content-Length` of what was sent):
 * fetch decodes leniently, as browsers and curl do, and hands back the start with no error. The
 * SDK sees a JSON document that never closes in a compressed answer, and says the body broke off.
 */
describe('half a compressed stream, ending cleanly', () => {
  const compressedCuts: Array<[string, (body: Uint8Array) => Uint8Array]> = [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ];

  /** `body` compressed as `encoding` says, its first half sent with a `Content-Length` of it. */
  function halfOf(encoding: string, body: unknown, status = 200): StubHandler {
    const compress = compressedCuts.find(([name]) => name === encoding)![1];
    const whole = compress(Buffer.from(JSON.stringify(body)));
    const half = whole.subarray(0, Math.floor(whole.length / 2));
    return (_request, res) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-encoding': encoding,
        'content-length': String(half.length),
      });
      res.end(half);
    };
  }

  /** The error a call failed with: an APIConnectionError naming the 200, keeping the start. */
  function expectBrokenOff(error: unknown, encoding: string, body: unknown): APIConnectionError {
    expect(error).toBeInstanceOf(APIConnectionError);
    const broken = error as APIConnectionError;
    expect(broken.message).toMatch(
      new RegExp(`→ 200 OK, but its ${encoding} body broke off after \\d+ bytes: `),
    );
    expect(broken.status).toBe(200);
    expect(broken.body).not.toBe('');
    expect(JSON.stringify(body).startsWith(broken.body!)).toBe(true);
    return broken;
  }

  it.each(compressedCuts.map(([encoding]) => encoding))(
    'of %s, fails products.retrieve as a body broken off, retried as one',
    async (encoding) => {
      const client = await clientFor(halfOf(encoding, { data: PRODUCT }), 1);
      const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
      const broken = expectBrokenOff(error, encoding, { data: PRODUCT });
      expect(broken.message).toMatch(/^GET \/products\/prd_1 → 200 OK/);
      expect(server!.requests).toHaveLength(2);
    },
  );

  it('fails products.list the same way', async () => {
    const page = {
      data: [PRODUCT, { ...PRODUCT, hash: 'prd_2' }],
      meta: { current_page: 1, last_page: 1, per_page: 10, total: 2 },
    };
    const client = await clientFor(halfOf('gzip', page));
    const error = await client.products.list().catch((e: unknown) => e);
    expect(expectBrokenOff(error, 'gzip', page).message).toMatch(/^GET \/products → 200 OK/);
  });

  it('fails anticipations.confirm the same way, sent once (the service acted)', async () => {
    const answered = {
      amount: 100,
      status: 'approved',
      created_at: '2024-01-01T00:00:00-03:00',
      note: 'x'.repeat(200),
    };
    const client = await clientFor(halfOf('gzip', answered), 2);
    const seller = client.forUser('compressed-seller-token');
    const error = await seller.anticipations
      .confirm('ant_1', { scenario: 'above' })
      .catch((e: unknown) => e);
    expectBrokenOff(error, 'gzip', answered);
    expect(server!.requests).toHaveLength(1);
  });

  it('reads a whole stream whose gzip trailer alone is missing: the JSON is all there', async () => {
    const whole = gzipSync(Buffer.from(JSON.stringify({ data: PRODUCT })));
    const client = await clientFor(answer(200, 'gzip', whole.subarray(0, whole.length - 8)));
    await expect(client.products.retrieve('prd_1')).resolves.toEqual(PRODUCT);
  });
});
