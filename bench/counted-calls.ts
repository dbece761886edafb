/**
 * What the callgrind children (`instructions-child.ts`, `instructions-paths-child.ts`) share: a
 * time-out no counted call reaches, a `fetch` answering from memory, and the options every counted
 * client is made with, so that each child counts the same client on the same answers.
 */

const { BENCH_HEADERS, BENCH_TOKEN } = (await import(
  new URL('./measure.ts', import.meta.url).href
)) as typeof import('./measure');

/** A time-out no call reaches under callgrind, however loaded the machine. */
export const SLOW_TIMEOUT_MS = 600_000;

/**
 * A `fetch` that answers every request with the response `url` gave once (status, headers, body),
 * a new `Response` each time, as the network would hand it over.
 */
export async function fromMemory(url: string): Promise<typeof globalThis.fetch> {
  const answer = await globalThis.fetch(url, { headers: BENCH_HEADERS });
  if (!answer.ok) throw new Error(`bench server answered ${answer.status} for ${url}`);
  const body = await answer.text();
  const headers = [...answer.headers];
  return async () => new Response(body, { status: answer.status, headers });
}

/**
 * The options of a counted client: every variant gets the same long time-outs (the same timers,
 * only longer), and the SDK retries nothing into the count (a failed call fails the run).
 */
export function countedClientOptions(
  base: string,
  fetch: typeof globalThis.fetch,
  validateResponses: 'strict' | 'off',
) {
  return {
    baseUrl: base,
    clientToken: BENCH_TOKEN,
    validateResponses,
    timeout: SLOW_TIMEOUT_MS,
    totalTimeout: 2 * SLOW_TIMEOUT_MS,
    maxRetries: 0,
    fetch,
  };
}
