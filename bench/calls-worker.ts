/**
 * One variant of the "Calls" table in a process of its own, forked with IPC by
 * `isolated-calls.ts`. A partner's process runs the SDK, not ky beside it: sharing a process, the
 * variants share ky's and undici's optimised code, which then serves callers passing different
 * option shapes and is deoptimised for whichever runs next. Alone, each variant's JIT sees only
 * its own calls.
 *
 * Arguments: the base URL and the variant (`raw`, `ky`, `on`, `off`). It says `{ ready: true }`,
 * then answers each `{ key, n, concurrency }` with the block's `{ wall, cpu }` (milliseconds per
 * call, this process only) or `{ error }`.
 */

import ky from 'ky';
import { PartnerClient } from 'partner-sdk';

const { timeCalls, rawCall, BENCH_HEADERS, BENCH_TOKEN } = (await import(
  new URL('./measure.ts', import.meta.url).href
)) as typeof import('./measure');
const { answerBlocks } = (await import(
  new URL('./isolated-calls.ts', import.meta.url).href
)) as typeof import('./isolated-calls');
const { TIMED_CALLS } = (await import(
  new URL('./timed-calls.ts', import.meta.url).href
)) as typeof import('./timed-calls');
type Call = import('./measure').Call;
type TimedCallKey = import('./timed-calls').TimedCallKey;

/** A block to time, as the parent asks for it. */
export interface BlockRequest {
  key: TimedCallKey;
  n: number;
  concurrency: number;
}

/** A worker's answer: milliseconds per call, or why the block failed. */
export type BlockAnswer = { ready: true } | { wall: number; cpu: number } | { error: string };

const [base = '', variant = ''] = process.argv.slice(2);

/** Makes the call of `key` the way this worker's variant makes it. */
function variantCall(): (key: TimedCallKey) => Call {
  const urlOf = (key: TimedCallKey) => `${base}${TIMED_CALLS[key].path}`;
  switch (variant) {
    case 'raw':
      return (key) => rawCall(urlOf(key), BENCH_HEADERS);
    case 'ky': {
      const api = ky.create({ headers: BENCH_HEADERS });
      return (key) => {
        const url = urlOf(key);
        return () => api.get(url).json();
      };
    }
    case 'on':
    case 'off': {
      const client = new PartnerClient({
        baseUrl: base,
        clientToken: BENCH_TOKEN,
        validateResponses: variant === 'on' ? 'strict' : 'off',
      });
      return (key) => () => TIMED_CALLS[key].sdk(client);
    }
    default:
      throw new Error(`calls-worker: unknown variant "${variant}"`);
  }
}

const callOf = variantCall();
answerBlocks((request: BlockRequest) =>
  timeCalls(callOf(request.key), request.n, request.concurrency),
);
