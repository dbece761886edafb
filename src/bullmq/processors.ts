/**
 * Ready processors for a partner's BullMQ `Worker`, and what they share: refund waits and offer
 * updates here, refund requests in `refund-processor.ts`. Each returns plain data with the bulk outcome kinds, and leaves retries to BullMQ
 * (every call is made with `maxRetries: 0`, so the SDK's own retries never stack on BullMQ's).
 * Each takes the `AbortSignal` BullMQ hands a processor declaring `(job, token, signal)`: a job
 * BullMQ cancels (`worker.cancelJob`, `worker.cancelAllJobs`) ends at once with the abort's error,
 * thrown as it is for BullMQ to fail or run again by the job's attempts.
 *
 * @module
 */

import { optionsOf } from '../client';
import type { RequestOptions } from '../core/options';
import type { TelemetryOptions } from '../telemetry/types';
import { heedHold, type RateLimitedQueue, rethrowForBullmq } from './failures';
import { checkJobClients, clientOfJob, type JobClients } from './job-client';
import { jobDataOf, type OfferUpdateJobData, type RefundWaitJobData } from './jobs';
import { checkProcessor } from './options';
import { tracedProcessor } from './telemetry';

/** What a processor reads of a BullMQ job. */
export interface ProcessorJob<D> {
  /** The job's id. */
  id?: string;
  /** The job's data, as the producer enqueued it. */
  data: D;
  /**
   * When the job was enqueued (milliseconds since the epoch, the producer's clock: a refund job
   * run again searches from it as a time of another machine, `{ otherMachine }`).
   */
  timestamp: number;
  /** Attempts that ended in a failure so far. */
  attemptsMade: number;
  /** Times the job was started, this run included (BullMQ ≥ 5): more than 1 after a stall or a retry. */
  attemptsStarted?: number;
  /**
   * Why its last attempt failed, which BullMQ keeps on the job: a refund job run again reads there
   * whether an earlier run's refund request took effect, and says so again if it fails too.
   */
  failedReason?: string;
}

/** Options of every processor. */
export interface ProcessorOptions {
  /** The queue the worker takes jobs from: a 429 holds it whole for `Retry-After`. */
  queue: RateLimitedQueue;
  /** Per-call `timeout`, `totalTimeout` and `headers` (retries are BullMQ's). */
  requestOptions?: Pick<RequestOptions, 'timeout' | 'totalTimeout' | 'headers'>;
  /**
   * OpenTelemetry: a span per job (`bullmq.refunds.request`…) with the SDK's calls under it.
   * Default: where the processor's client records (its own `telemetry` option: `false` there is
   * off here too), or, for a processor of a function of the seller (no client when it is made),
   * with the providers registered with `@opentelemetry/api`; `false` turns it off.
   */
  telemetry?: false | TelemetryOptions;
}

/**
 * A processor records where its client does, unless its own `telemetry` option says otherwise; a
 * processor of a seller function has no client yet, and records where the default does.
 */
export function telemetryOf(clients: JobClients, options: ProcessorOptions) {
  if (options.telemetry !== undefined || typeof clients === 'function') return options.telemetry;
  return optionsOf(clients).telemetry;
}

/** Checks a processor's arguments when it is made: its client (or seller function), its options. */
export function checkArguments(where: string, clients: unknown, options: unknown, refund: boolean) {
  checkJobClients(where, clients);
  checkProcessor(where, options, refund);
}

/** A job's result: plain JSON, the bulk outcome kinds `succeeded` and `existing`. */
export interface QueueJobResult {
  /** `succeeded`: done by this job; `existing`: the service already had it. */
  status: 'succeeded' | 'existing';
  /** The item's key (the transaction hash, or `product/offer`). */
  key: string;
  /** Found made by an earlier run of this job (a retry after a lost answer, a stalled job taken over). */
  reconciled: boolean;
  /** A small summary of what the service answered. */
  result: Record<string, unknown>;
}

/** A processor's call options: no retries of the SDK's own, and BullMQ's cancel signal. */
export const callOptions = (
  options: ProcessorOptions,
  signal: AbortSignal | undefined,
): RequestOptions => ({
  ...options.requestOptions,
  maxRetries: 0,
  signal,
});

/**
 * The processor of refund wait jobs: waits for the transaction's refund to end (`completed` or
 * `failed`, both a `succeeded` outcome: read `result.status`). Read-only, so a repeat is harmless.
 *
 * @param clients A seller client every job runs as, or a function of a job's `seller` (as for
 * `refundProcessor`).
 * @throws {RequestValidationError} an option or the client is invalid, when the processor is made.
 * @example
 * ```ts
 * new Worker('refund-waits', refundWaitProcessor(seller, { queue }), { connection });
 * ```
 */
export function refundWaitProcessor(
  clients: JobClients,
  options: ProcessorOptions,
): (
  job: ProcessorJob<RefundWaitJobData>,
  token?: string,
  signal?: AbortSignal,
) => Promise<QueueJobResult> {
  checkArguments('refundWaitProcessor', clients, options, false);
  return tracedProcessor(
    'bullmq.refunds.waitForCompletion',
    telemetryOf(clients, options),
    async (job, signal) => {
      try {
        const key = jobDataOf(job, ['transactionHash']).transactionHash;
        await heedHold(options.queue);
        const client = await clientOfJob(clients, job, signal);
        const final = await client.refunds.waitForCompletion(key, { signal });
        const result = { status: final.status, refund: final.hash };
        return { status: 'succeeded', key, reconciled: false, result };
      } catch (error) {
        return rethrowForBullmq(error, options.queue);
      }
    },
  );
}

/**
 * The processor of offer update jobs (a PUT: a repeat writes the same settings again).
 *
 * @param clients A seller client every job runs as, or a function of a job's `seller` (as for
 * `refundProcessor`).
 * @throws {RequestValidationError} an option or the client is invalid, when the processor is made.
 * @example
 * ```ts
 * new Worker('offers', offerUpdateProcessor(seller, { queue }), { connection });
 * ```
 */
export function offerUpdateProcessor(
  clients: JobClients,
  options: ProcessorOptions,
): (
  job: ProcessorJob<OfferUpdateJobData>,
  token?: string,
  signal?: AbortSignal,
) => Promise<QueueJobResult> {
  checkArguments('offerUpdateProcessor', clients, options, false);
  const name = 'bullmq.offers.update';
  return tracedProcessor(name, telemetryOf(clients, options), async (job, signal) => {
    try {
      const { productHash, offerCode, params } = jobDataOf(job, ['productHash', 'offerCode']);
      const key = `${productHash}/${offerCode}`;
      await heedHold(options.queue);
      const client = await clientOfJob(clients, job, signal);
      const offer = await client.offers.update(
        productHash,
        offerCode,
        params,
        callOptions(options, signal),
      );
      return { status: 'succeeded', key, reconciled: false, result: { price: offer.price } };
    } catch (error) {
      return rethrowForBullmq(error, options.queue);
    }
  });
}
