/**
 * One variant of one call, for `instructions.ts` to count under callgrind:
 * `node bench/instructions-child.ts <case> <variant> <concurrency> <warm-up calls> <calls> [memory]`,
 * where a variant is `ky`, `on`, `off` or `telemetry:<variant of telemetry.ts>` (case `retrieve`).
 * It starts the loopback service (a child process, which callgrind does not follow, so only the
 * caller is counted), makes the warm-up calls, then `calls` more, and exits. With `memory`, every
 * variant's `fetch` answers from memory with the body the service sent once: the network is out of
 * the count, so what is left is each library's own work on the same response.
 */

import ky from 'ky';
import { PartnerClient } from 'partner-sdk';

const { startServer, timeCalls, JUDGED_CALLS, BENCH_TOKEN, BENCH_HEADERS } = (await import(
  new URL('./measure.ts', import.meta.url).href
)) as typeof import('./measure');

const { SLOW_TIMEOUT_MS, fromMemory, countedClientOptions } = (await import(
  new URL('./counted-calls.ts', import.meta.url).href
)) as typeof import('./counted-calls');

const [caseName, variant, concurrency, warmUp, calls, transport] = process.argv.slice(2);
const testCase = JUDGED_CALLS[caseName as keyof typeof JUDGED_CALLS];
const server = await startServer();
try {
  const url = `${server.base}${testCase.path}`;
  const fetch = transport === 'memory' ? await fromMemory(url) : globalThis.fetch;
  // Under callgrind a call runs tens of times slower, more so beside other work: every variant
  // gets the same long time-outs (`countedClientOptions`).
  const client = (validateResponses: 'strict' | 'off') =>
    new PartnerClient(countedClientOptions(server.base, fetch, validateResponses));
  const api = ky.create({ headers: BENCH_HEADERS, timeout: SLOW_TIMEOUT_MS, fetch });
  const on = client('strict');
  const off = client('off');
  const call = variant?.startsWith('telemetry:')
    ? await telemetryCall(variant.slice('telemetry:'.length), server.base, fetch)
    : {
        ky: () => api.get(url).json(),
        on: () => testCase.sdk(on),
        off: () => testCase.sdk(off),
      }[variant as 'ky' | 'on' | 'off'];
  await timeCalls(call, Number(warmUp), Number(concurrency));
  await timeCalls(call, Number(calls), Number(concurrency));
} finally {
  server.stop();
}

/**
 * A variant of the telemetry rows (`telemetry.ts`: `products.retrieve` with no telemetry, with the
 * API and no provider, recorded, or the floor by hand), with OpenTelemetry's context manager
 * registered as the timed rows have it.
 */
async function telemetryCall(name: string, base: string, fetch: typeof globalThis.fetch) {
  const { context } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { telemetryVariants } = (await import(
    new URL('./telemetry.ts', import.meta.url).href
  )) as typeof import('./telemetry');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const variants = telemetryVariants(
    { base, token: BENCH_TOKEN },
    { fetch, timeout: SLOW_TIMEOUT_MS, totalTimeout: 2 * SLOW_TIMEOUT_MS, maxRetries: 0 },
  );
  return variants[name as keyof typeof variants]();
}
