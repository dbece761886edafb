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
 * `process`, each job it runs recorded as a span `name` when a provider is registered, under the
 * trace context the producer put in the job's data (when it did).
 */
export function tracedProcessor<
  J extends { attemptsMade: number; data: unknown },
  R extends { status: string },
>(
  name: string,
  option: false | TelemetryOptions | undefined,
  process: (job: J) => Promise<R>,
): (job: J) => Promise<R> {
  const source = new TelemetrySource(option);
  return async (job) => {
    const pending = source.current();
    const telemetry = pending && (await pending);
    if (!telemetry) return process(job);
    const attributes = {
      'messaging.system': 'bullmq',
      'messaging.operation.type': 'process',
      'partner_sdk.bullmq.attempt': job.attemptsMade + 1,
    };
    const carried = (job.data as { trace?: unknown } | undefined)?.trace;
    return withTraceContext(carried, () =>
      telemetry.span(name, attributes, async (span) => {
        const result = await process(job);
        span.set({ 'partner_sdk.bulk.outcome': result.status });
        return result;
      }),
    );
  };
}
