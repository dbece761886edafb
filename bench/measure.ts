/**
 * What every per-call bench shares: the loopback service started as a child process, and the
 * timing of a block of calls with their median. `run.ts`, `ab.ts` and `telemetry.ts` import it,
 * so that their figures are measured the same way.
 */

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A call to time. */
export type Call = () => PromiseLike<unknown>;

/** The client token `server.ts` accepts. */
export const BENCH_TOKEN = 'bench-client-token';

/** The headers every plain-fetch and ky variant sends, as the SDK sends them. */
export const BENCH_HEADERS = { Accept: 'application/json', 'X-Api-Client-Token': BENCH_TOKEN };

/** What the judged calls need of a client: any build of the SDK has it. */
interface ProductsClient {
  products: {
    list(params: { per_page: number }): PromiseLike<unknown>;
    retrieve(hash: string): PromiseLike<unknown>;
  };
}

/**
 * The calls the per-call budget is judged on, the same in every bench that times or counts them:
 * a large page and a single product, each with the URL its plain-fetch and ky variants ask for.
 */
export const JUDGED_CALLS = {
  list: {
    name: 'products.list (50, ~75 KB)',
    path: '/products?per_page=50',
    sdk: (client: ProductsClient) => client.products.list({ per_page: 50 }),
  },
  retrieve: {
    name: 'products.retrieve (~1.5 KB)',
    path: '/products/prd_0000000x',
    sdk: (client: ProductsClient) => client.products.retrieve('prd_0000000x'),
  },
};

/** `fetch` + `JSON.parse` of `url`, the floor every other variant is compared with. */
export const rawCall =
  (url: string, headers: Record<string, string>): Call =>
  async () => {
    const response = await fetch(url, { headers });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return JSON.parse(await response.text());
  };

/** Starts `server.ts` in a child process (its work never shares the measuring event loop). */
export async function startServer(): Promise<{ base: string; stop: () => void }> {
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  return { base: `http://127.0.0.1:${port}/api/v1`, stop: () => child.kill() };
}

/** Wall and CPU milliseconds (this process, all threads) per call of `n` calls, `concurrency` at a time. */
export async function timeCalls(
  call: Call,
  n: number,
  concurrency: number,
): Promise<{ wall: number; cpu: number }> {
  let started = 0;
  const worker = async () => {
    while (started++ < n) await call();
  };
  // Each block starts on a clean heap, so no variant pays for the garbage of the one before it
  // (a 75 KB page makes megabytes of it per block). The benches run with --expose-gc.
  (globalThis as { gc?: () => void }).gc?.();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wall: wall / n, cpu: (cpu.user + cpu.system) / 1000 / n };
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
