/**
 * One variant of the telemetry rows in a process of its own, forked with IPC through
 * `isolated-calls.ts` by `telemetry.ts`. As with the calls table, a partner's process runs one
 * configuration of the SDK: sharing a process, the variants would share the SDK's, ky's and the
 * OpenTelemetry SDK's optimised code, deoptimised for whichever variant ran last.
 *
 * Arguments: the base URL and the variant (a key of `telemetryVariants`). Every variant runs with
 * OpenTelemetry's context manager registered, as a partner with tracing installed has it. It says
 * `{ ready: true }`, then answers each `{ n, concurrency }` with the block's `{ wall, cpu }`
 * (milliseconds per call, this process only) or `{ error }`.
 */

import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

const { timeCalls, BENCH_TOKEN } = (await import(
  new URL('./measure.ts', import.meta.url).href
)) as typeof import('./measure');
const { answerBlocks } = (await import(
  new URL('./isolated-calls.ts', import.meta.url).href
)) as typeof import('./isolated-calls');
const { telemetryVariants } = (await import(
  new URL('./telemetry.ts', import.meta.url).href
)) as typeof import('./telemetry');
type Variant = import('./telemetry').Variant;

/** A block to time, as the parent asks for it. */
export interface TelemetryBlockRequest {
  n: number;
  concurrency: number;
}

const [base = '', variant = ''] = process.argv.slice(2);

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const build = telemetryVariants({ base, token: BENCH_TOKEN })[variant as Variant];
if (build === undefined) throw new Error(`telemetry-worker: unknown variant "${variant}"`);
const call = build();

answerBlocks((request: TelemetryBlockRequest) => timeCalls(call, request.n, request.concurrency));
