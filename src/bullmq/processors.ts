/**
 * Ready processors for a partner's BullMQ `Worker`: refund requests, refund waits and offer
 * updates. Each returns plain data with the bulk outcome kinds, and leaves retries to BullMQ
 * (every call is made with `maxRetries: 0`, so the SDK's own retries never stack on BullMQ's).
 * Each takes the `AbortSignal` BullMQ hands a processor declaring `(job, token, signal)`: a job
 * BullMQ cancels (`worker.cancelJob`, `worker.cancelAllJobs`) ends at once with the abort's error,
 * thrown as it is for BullMQ to fail or run again by the job's attempts.
 *
 * @module
 */

import { refuseIfRefunded } from '../bulk/already-refunded';
import { optionsOf, type PartnerClient, type SellerClient } from '../client';
import type { RequestOptions } from '../core/options';
import type { IoredisClient, RedisClient } from '../redis/client';
import type { TelemetryOptions } from '../telemetry/types';
import { type RateLimitedQueue, rethrowForBullmq } from './failures';
import {
  checkUnlessRefunded,
  jobDataOf,
  type OfferUpdateJobData,
  type RefundJobData,
  type RefundWaitJobData,
} from './jobs';
import { checkProcessor } from './options';
import { type HeldLease, RefundLeases } from './refund-lease';
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
   * off here too); `false` turns it off.
   */
  telemetry?: false | TelemetryOptions;
}

/** A processor records where its client does, unless its own `telemetry` option says otherwise. */
function telemetryOf(client: PartnerClient | SellerClient, options: ProcessorOptions) {
  return options.telemetry ?? optionsOf(client).telemetry;
}

/** Options of {@link refundProcessor}. */
export interface RefundProcessorOptions extends ProcessorOptions {
  /**
   * The Redis connection (an `ioredis` client or a connected `redis` one) of the lease per
   * transaction: one runner at a time sends a transaction's refund, even when BullMQ hands a
   * stalled job to a second worker while the first one's request is still in flight; the second
   * waits for the lease and reconciles. Default: the queue's own connection (its backend's ioredis
   * client), so the lease is on with any BullMQ queue on Redis; give one to keep leases elsewhere.
   */
  redis?: RedisClient;
  /**
   * Milliseconds a lease lasts without renewal (renewed three times as often while a request is
   * in flight): how long a second runner waits when the first one died. A whole number from 100
   * to 2 147 483 647; default 30 000.
   */
  leaseMs?: number;
  /**
   * Refuse a transaction that already has a `completed` refund and none active, as
   * `requestRefunds`' option of that name does: its refunds are read first, and the job fails for
   * good (`UnrecoverableError`, its `failedReason` starting `AlreadyRefundedError:` and naming
   * the refund), nothing sent. A job's id keeps a transaction from being refunded twice only while
   * BullMQ keeps the job; this covers one enqueued again after it was removed. A job's own
   * `unlessRefunded` (its data) wins over this. Default `false`.
   */
  unlessRefunded?: boolean;
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
const callOptions = (
  options: ProcessorOptions,
  signal: AbortSignal | undefined,
): RequestOptions => ({
  ...options.requestOptions,
  maxRetries: 0,
  signal,
});

/** Whether BullMQ ran this job before (a retry, or a stalled job taken over after a worker died). */
const ranBefore = (job: ProcessorJob<unknown>) =>
  job.attemptsMade > 0 || (job.attemptsStarted ?? 0) > 1;

/**
 * The processor of refund request jobs. A job BullMQ runs again (a retry, or a stalled job taken
 * over after its worker died) first reads the transaction's refunds made since the job was
 * enqueued (`refunds.findCreatedSince`), and sends only when none was made. The enqueue time is
 * on the producer's clock, so the search starts that much earlier than it by the client's
 * `reconciliation.maxClockSkewMs` (15 minutes unless set): a producer running ahead of the
 * service never hides the first run's refund; a refund of the transaction made that long before
 * the job and no longer active is taken as the job's rather than a second one made. A lease per
 * transaction, on the queue's own Redis (or `redis`), also keeps two runs of one job from sending
 * at once (a stalled job handed to a second worker while the first still waits for its answer):
 * a refund is never made twice by one job. With `unlessRefunded` (or a job's own), a transaction
 * already refunded by an earlier job, since removed, is refused.
 *
 * @param client A seller client (`client.forUser(token)`).
 * @throws {RequestValidationError} an option is invalid (named with its bound), when the
 * processor is made.
 * @example
 * ```ts
 * import { Queue, Worker } from 'bullmq';
 * import { refundProcessor } from 'partner-sdk/bullmq';
 *
 * const queue = new Queue('refunds', { connection });
 * const worker = new Worker('refunds', refundProcessor(seller, { queue }), { connection, concurrency: 8 });
 * ```
 */
export function refundProcessor(
  client: PartnerClient | SellerClient,
  options: RefundProcessorOptions,
): (
  job: ProcessorJob<RefundJobData>,
  token?: string,
  signal?: AbortSignal,
) => Promise<QueueJobResult> {
  checkProcessor('refundProcessor', options, true);
  let leases: Promise<RefundLeases | undefined> | undefined;
  const name = 'bullmq.refunds.request';
  return tracedProcessor(name, telemetryOf(client, options), async (job, signal) => {
    leases ??= leasesOf(options);
    let lease: HeldLease | undefined;
    try {
      const { transactionHash } = jobDataOf(job, ['transactionHash']);
      checkUnlessRefunded(job.data);
      lease = await (await leases)?.acquire(transactionHash, signal);
      const request = callOptions(options, signal);
      return await refundOnce(client, options, job, request, lease?.waited ?? false);
    } catch (error) {
      // Awaited here, so that its rejection is handled before the lease is given back.
      return await rethrowForBullmq(error, options.queue);
    } finally {
      await lease?.release();
    }
  });
}

/**
 * The processor's leases, on `redis` or else on the queue's own connection. A queue that is not
 * BullMQ's (no `client`) has none: only a job run again after its first run ended reconciles.
 */
async function leasesOf(options: RefundProcessorOptions): Promise<RefundLeases | undefined> {
  const redis = options.redis ?? (await queueConnection(options.queue));
  return redis && new RefundLeases(redis, options.leaseMs);
}

/** The queue's own ioredis client, when it has one (BullMQ's Redis backend wraps ioredis). */
async function queueConnection(queue: RateLimitedQueue): Promise<RedisClient | undefined> {
  const client = await queue.getBackend?.().client;
  const ioredis = client as Partial<IoredisClient> | undefined;
  return typeof ioredis?.call === 'function' ? (ioredis as IoredisClient) : undefined;
}

/**
 * Reconciles first when an earlier run may have sent (its own refund is its result, never a
 * reason to refuse), then, when the job or the processor says so, refuses a transaction already
 * refunded, then sends.
 */
async function refundOnce(
  client: PartnerClient | SellerClient,
  options: RefundProcessorOptions,
  job: ProcessorJob<RefundJobData>,
  request: RequestOptions,
  waited: boolean,
): Promise<QueueJobResult> {
  const { transactionHash: key, params } = job.data;
  if (waited || ranBefore(job)) {
    // The producer's clock, not this worker's: searched from it less the skew bound.
    const since = { otherMachine: new Date(job.timestamp) };
    const made = await client.refunds.findCreatedSince(key, since, request);
    if (made) {
      const result = { kind: 'existing', refund: made.hash, status: made.status };
      return { status: 'succeeded', key, reconciled: true, result };
    }
  }
  if (job.data.unlessRefunded ?? options.unlessRefunded) {
    await refuseIfRefunded(client, key, request);
  }
  const answer = await client.refunds.request(key, params ?? {}, request);
  if (answer.kind === 'accepted') {
    return { status: 'succeeded', key, reconciled: false, result: { kind: 'accepted' } };
  }
  const result = { kind: 'existing', refund: answer.refund.hash, status: answer.refund.status };
  return { status: 'existing', key, reconciled: false, result };
}

/**
 * The processor of refund wait jobs: waits for the transaction's refund to end (`completed` or
 * `failed`, both a `succeeded` outcome: read `result.status`). Read-only, so a repeat is harmless.
 *
 * @throws {RequestValidationError} an option is invalid, when the processor is made.
 * @example
 * ```ts
 * new Worker('refund-waits', refundWaitProcessor(seller, { queue }), { connection });
 * ```
 */
export function refundWaitProcessor(
  client: PartnerClient | SellerClient,
  options: ProcessorOptions,
): (
  job: ProcessorJob<RefundWaitJobData>,
  token?: string,
  signal?: AbortSignal,
) => Promise<QueueJobResult> {
  checkProcessor('refundWaitProcessor', options, false);
  return tracedProcessor(
    'bullmq.refunds.waitForCompletion',
    telemetryOf(client, options),
    async (job, signal) => {
      try {
        const key = jobDataOf(job, ['transactionHash']).transactionHash;
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
 * @throws {RequestValidationError} an option is invalid, when the processor is made.
 * @example
 * ```ts
 * new Worker('offers', offerUpdateProcessor(seller, { queue }), { connection });
 * ```
 */
export function offerUpdateProcessor(
  client: PartnerClient | SellerClient,
  options: ProcessorOptions,
): (
  job: ProcessorJob<OfferUpdateJobData>,
  token?: string,
  signal?: AbortSignal,
) => Promise<QueueJobResult> {
  checkProcessor('offerUpdateProcessor', options, false);
  const name = 'bullmq.offers.update';
  return tracedProcessor(name, telemetryOf(client, options), async (job, signal) => {
    try {
      const { productHash, offerCode, params } = jobDataOf(job, ['productHash', 'offerCode']);
      const key = `${productHash}/${offerCode}`;
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
