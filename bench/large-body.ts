/**
 * Where the time goes when a call answers with a very large JSON body (a products page of about
 * 30 MB): each step the SDK runs on it, timed alone on the same bytes (decoding, `JSON.parse`, the
 * response check), and the longest the event loop stood still during the whole call, with the check
 * on and off, beside ky alone. Run after a build, with the repo's Node 24:
 *
 *   npm run build && node bench/large-body.ts
 *
 * It prints a Markdown table; the figures of a run are kept in bench/RESULTS.md.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import ky from 'ky';
import { PartnerClient, ProductListResponseSchema } from 'partner-sdk';
import * as z from 'zod/mini';

const { product } = (await import(
  new URL('./server.ts', import.meta.url).href
)) as typeof import('./server');

const TARGET_BYTES = 30 * 1024 * 1024;
const ROUNDS = 5;

/** A products page of about `TARGET_BYTES`, as the service would send it (spec §2.5, §4.10). */
function largePage(): Buffer {
  const one = Buffer.byteLength(JSON.stringify(product(1)));
  const count = Math.ceil(TARGET_BYTES / (one + 1));
  const data = Array.from({ length: count }, (_, i) => product(i + 1));
  const meta = { current_page: 1, last_page: 1, per_page: count, total: count };
  return Buffer.from(JSON.stringify({ data, meta }));
}

/** This process's CPU time so far, in ms: load elsewhere on the machine barely moves it. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The median of `runs` CPU timings of `work`, in ms. */
function median(work: () => unknown, runs = ROUNDS): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = cpuMs();
    work();
    times.push(cpuMs() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

/** The median of `runs` CPU timings of the whole of `call`, in ms. */
async function medianCall(call: () => Promise<unknown>, runs = ROUNDS): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = cpuMs();
    await call();
    times.push(cpuMs() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

/**
 * The median over rounds of the longest event-loop stall during `call`, in ms: the largest gap
 * between ticks of a 1 ms interval, less the interval itself.
 */
async function longestStall(call: () => Promise<unknown>): Promise<number> {
  const stalls: number[] = [];
  for (let run = 0; run < ROUNDS; run++) {
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last - 1);
      last = now;
    }, 1);
    await call();
    clearInterval(ticker);
    longest = Math.max(longest, performance.now() - last - 1);
    stalls.push(longest);
  }
  return stalls.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
}

const body = largePage();
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  response.end(body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;

const text = new TextDecoder().decode(body);
const parsed = JSON.parse(text);
const compiledSchema = z.compile(ProductListResponseSchema);
const steps = {
  decode: median(() => new TextDecoder().decode(body)),
  parse: median(() => JSON.parse(text)),
  checkCompiled: median(() => z.safeParse(compiledSchema, parsed)),
  checkInterpreted: median(() => z.safeParse(ProductListResponseSchema, parsed)),
};
const client = (validateResponses: 'strict' | 'off') =>
  new PartnerClient({
    baseUrl: base,
    clientToken: 'large-body',
    validateResponses,
    maxResponseBytes: 64 * 1024 * 1024,
  });
const strict = client('strict');
const off = client('off');
const stalls = {
  ky: await longestStall(() => ky.get(`${base}/products`).json()),
  sdkOff: await longestStall(() => off.products.list({ per_page: 50 })),
  sdkStrict: await longestStall(() => strict.products.list({ per_page: 50 })),
};
const calls = {
  ky: await medianCall(() => ky.get(`${base}/products`).json()),
  sdkOff: await medianCall(() => off.products.list({ per_page: 50 })),
  sdkStrict: await medianCall(() => strict.products.list({ per_page: 50 })),
};
server.close();

const mb = (body.length / 1024 / 1024).toFixed(1);
const f = (ms: number) => ms.toFixed(0);
console.log(
  `Body: a products page of ${parsed.data.length} products, ${mb} MiB. CPU ms, median of ${ROUNDS}.`,
);
console.log('');
console.log('| step | CPU ms |');
console.log('|---|---:|');
console.log(`| decode (TextDecoder) | ${f(steps.decode)} |`);
console.log(`| JSON.parse | ${f(steps.parse)} |`);
console.log(`| response check, compiled (what a call runs) | ${f(steps.checkCompiled)} |`);
console.log(`| response check, interpreted (zod's parser) | ${f(steps.checkInterpreted)} |`);
console.log(`| whole call: ky \`.json()\` | ${f(calls.ky)} |`);
console.log(`| whole call: SDK, validateResponses 'off' | ${f(calls.sdkOff)} |`);
console.log(`| whole call: SDK, 'strict' | ${f(calls.sdkStrict)} |`);
console.log('');
console.log('| longest event-loop stall (wall ms) | ky | SDK off | SDK strict |');
console.log('|---|---:|---:|---:|');
console.log(
  `| median of ${ROUNDS} | ${f(stalls.ky)} | ${f(stalls.sdkOff)} | ${f(stalls.sdkStrict)} |`,
);
