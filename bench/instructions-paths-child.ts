/**
 * Calls that take the paths the judged ones do not, for callgrind to count as `instructions.ts`
 * counts the judged ones (not a judged row):
 * `node bench/instructions-paths-child.ts <case> <variant> <concurrency> <warm-up calls> <calls>`,
 * where a case is `options` (`products.retrieve` given `{ signal, timeout }`, so the call's options
 * are checked and each attempt watches the signal) or `refund` (`refunds.request` with a JSON body,
 * so its params are read, checked and walked before it is sent), and a variant `ky`, `on` or
 * `off`. Every variant's `fetch` answers from memory, as the judged "memory" rows do.
 */

import ky from 'ky';
import { PartnerClient } from 'partner-sdk';

const { startServer, timeCalls, JUDGED_CALLS, BENCH_HEADERS } = (await import(
  new URL('./measure.ts', import.meta.url).href
)) as typeof import('./measure');

const { SLOW_TIMEOUT_MS, fromMemory, countedClientOptions } = (await import(
  new URL('./counted-calls.ts', import.meta.url).href
)) as typeof import('./counted-calls');

const [caseName, variant, concurrency, warmUp, calls] = process.argv.slice(2);
const server = await startServer();
try {
  const retrieve = `${server.base}${JUDGED_CALLS.retrieve.path}`;
  const refund = `${server.base}/financial/refund/tx_0001`;
  // The refund's answer: the status endpoint's envelope, a 200 with the active refund.
  const answered = caseName === 'refund' ? `${refund}/status` : retrieve;
  const fetch = await fromMemory(answered);
  const client = (validateResponses: 'strict' | 'off') =>
    new PartnerClient(countedClientOptions(server.base, fetch, validateResponses));
  const api = ky.create({ headers: BENCH_HEADERS, timeout: SLOW_TIMEOUT_MS, fetch });
  const sdk = { on: client('strict'), off: client('off') };
  // One signal for every call, never aborted: a partner's shutdown signal.
  const { signal } = new AbortController();
  const params = { reason: 'Cliente desistiu da compra', cancel_subscription: true };
  const cases = {
    options: {
      ky: () => api.get(retrieve, { signal, timeout: SLOW_TIMEOUT_MS }).json(),
      sdk: (c: PartnerClient) =>
        c.products.retrieve('prd_0000000x', { signal, timeout: SLOW_TIMEOUT_MS }),
    },
    refund: {
      ky: () => api.post(refund, { json: params }).json(),
      sdk: (c: PartnerClient) => c.refunds.request('tx_0001', params),
    },
  };
  const chosen = cases[caseName as keyof typeof cases];
  const call =
    variant === 'ky' ? chosen.ky : () => chosen.sdk(sdk[variant as 'on' | 'off'] as PartnerClient);
  await timeCalls(call, Number(warmUp), Number(concurrency));
  await timeCalls(call, Number(calls), Number(concurrency));
} finally {
  server.stop();
}
