/**
 * One large use of the SDK (the scenario named by `SCENARIO`) against the loopback service at
 * `BASE_URL`, which the test runs in its own process so that only the SDK's memory is counted
 * here. Samples the resident set and what stays referenced (heap and buffers, after a full
 * collection) while the scenario runs, and prints, as its last line, how far each rose above
 * where it started, in MiB, with what the scenario reports. Started with `--expose-gc` by
 * big-bodies.test.ts.
 */

import { getEventListeners } from 'node:events';
import { openAsBlob } from 'node:fs';
import { PartnerClient } from 'partner-sdk';
import { paulistaAddress } from '../../helpers/addresses';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const BASE_URL = process.env.BASE_URL ?? '';
const MiB = 2 ** 20;

const person = {
  name: 'Ana Souza',
  cpf: '123.456.789-09',
  birth: '1990-04-01',
  address: paulistaAddress,
};

function seller(options: ConstructorParameters<typeof PartnerClient>[0] = {}) {
  return new PartnerClient({
    baseUrl: BASE_URL,
    clientToken: 'big-client-token-0001',
    logLevel: 'off',
    ...options,
  }).forUser('big-seller-public-token');
}

/** A web stream of `bytes` bytes made on the fly, 64 KiB at a time, never held whole. */
function generated(bytes: number): ReadableStream<Uint8Array> {
  let left = bytes;
  return new ReadableStream({
    pull(controller) {
      const size = Math.min(left, 64 * 1024);
      controller.enqueue(new Uint8Array(size).fill(0x61));
      left -= size;
      if (left === 0) controller.close();
    },
  });
}

/** The kinds of what keeps the process alive, counted. */
function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** `count` calls at once on one client, every one given the same long-lived signal. */
async function wave(client: ReturnType<typeof seller>, count: number, signal: AbortSignal) {
  const results = await Promise.allSettled(
    Array.from({ length: count }, (_, i) => client.products.retrieve(`prd_${i}`, { signal })),
  );
  return results.filter((result) => result.status === 'fulfilled').length;
}

const uploadLimit = { maxUploadBytes: 256 * MiB };

const scenarios: Record<string, () => Promise<unknown>> = {
  'upload a file from disk': async () => {
    const avatar = await openAsBlob(process.env.FILE ?? '', { type: 'image/png' });
    await seller(uploadLimit).users.update({ ...person, avatar });
    return 'sent';
  },
  'upload a stream': async () => {
    await seller(uploadLimit).users.update({
      ...person,
      avatar: generated(Number(process.env.BYTES)),
    });
    return 'sent';
  },
  // An attempt's time-out shorter than the body takes: it bounds the wait for the headers only.
  'stream a download': async () => {
    const response = await seller({ timeout: 500 }).statements.download({
      url: `${BASE_URL}/downloads/big.csv`,
    });
    let bytes = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
    }
    return bytes;
  },
  'an endless body the SDK reads': () =>
    seller({ maxRetries: 0 }).request({ method: 'GET', path: '/downloads/endless' }),
  'walk every page': async () => {
    let items = 0;
    for await (const _ of seller().anticipations.list({ per_page: 100 })) items++;
    return items;
  },
  'many calls at once': async () => {
    const client = seller();
    const signal = new AbortController().signal;
    const warnings: string[] = [];
    process.on('warning', (warning) => warnings.push(`${warning.name}: ${warning.message}`));
    const count = Number(process.env.COUNT);
    const fulfilled = await wave(client, count, signal);
    return { fulfilled, warnings, listeners: getEventListeners(signal, 'abort').length };
  },
};

const scenario = scenarios[process.env.SCENARIO ?? ''];
if (!scenario) throw new Error(`no scenario ${process.env.SCENARIO}`);

/** What stays referenced: the heap and the memory outside it (buffers, a blob's bytes). */
function live(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}
gc();
const start = { rss: process.memoryUsage.rss(), live: live() };
const peak = { ...start };
// A full collection before each sample: what is still referenced, not garbage not yet collected.
const sampler = setInterval(
  () => {
    gc();
    peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
    peak.live = Math.max(peak.live, live());
  },
  Number(process.env.SAMPLE_MS ?? 25),
);
let result: unknown;
let failure: string | undefined;
try {
  result = await scenario();
} catch (error) {
  failure = (error as Error).name;
}
clearInterval(sampler);
const mb = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;
process.stdout.write(
  `${JSON.stringify({
    rssGrowthMb: mb(peak.rss - start.rss),
    liveGrowthMb: mb(peak.live - start.live),
    result,
    failure,
    handles: handles(),
  })}\n`,
);
