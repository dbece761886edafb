/**
 * A BullMQ job in telemetry: a span per job a processor runs, under the span active in the worker
 * (the SDK's calls nest under it), with its outcome; never the job's id, which may be built from a
 * transaction hash.
 *
 * @module
 */

import { TelemetrySource } from '../telemetry/gate';
import type { TelemetryOptions } from '../telemetry/types';
import { withTraceContext } from './trace-context';

/**
 * A processor as BullMQ calls it: the job, the job's lock token, and the signal BullMQ aborts when
 * the job is cancelled (`worker.cancelJob`, `worker.cancelAllJobs`). BullMQ passes that signal
 * only to a function declaring all three parameters (it reads the function's `length`).
 */
export type BullmqProcessor<J, R> = (job: J, token?: string, signal?: AbortSignal) => Promise<R>;

/**
 * `process`, each job it runs recorded as a span `name` when a provider is registered, under the
 * trace context the producer put in the job's data (when it did), and given BullMQ's signal.
 */
export function tracedProcessor<
  J extends { attemptsMade: number; data: unknown },
  R extends { status: string },
>(
  name: string,
  option: false | TelemetryOptions | undefined,
  process: (job: J, signal: AbortSignal | undefined) => Promise<R>,
): BullmqProcessor<J, R> {
  const source = new TelemetrySource(option);
  // Three declared parameters, none with a default: BullMQ hands the signal only then.
  return async (job: J, _token?: string, signal?: AbortSignal) => {
    const pending = source.current();
    const telemetry = pending && (await pending);
    if (!telemetry) return process(job, signal);
    const attributes = {
      'messaging.system': 'bullmq',
      'messaging.operation.type': 'process',
      'partner_sdk.bullmq.attempt': job.attemptsMade + 1,
    };
    const carried = (job.data as { trace?: unknown } | undefined)?.trace;
    return withTraceContext(carried, () =>
      telemetry.span(name, attributes, async (span) => {
        const result = await process(job, signal);
        span.set({ 'partner_sdk.bulk.outcome': result.status });
        return result;
      }),
    );
  };
}
