/**
 * Putting bulk work on a BullMQ queue: each item checked first (a bad one is refused before
 * anything is enqueued), then added under an id derived from it, so that enqueuing a transaction
 * twice makes one job.
 *
 * @module
 */

import { randomUUID } from 'node:crypto';
import { describeIssues, RequestValidationError } from '../core/errors';
import { encodePathParam } from '../core/transport/path';
import { checkParams } from '../core/validation';
import type { RedisClient } from '../redis/client';
import { OfferUpdateParamsSchema } from '../schemas/offer';
import { RefundRequestParamsSchema } from '../schemas/refund';
import { batchRecord, recordJobs } from './batch';
import { sellerOf } from './job-client';
import {
  checkUnlessRefunded,
  JOB_NAMES,
  jobIdOf,
  type OfferUpdateJobData,
  type RefundJobData,
  type RefundWaitJobData,
} from './jobs';
import { checkEnqueue } from './options';
import type { followBatch } from './progress';
import { activeTraceContext } from './trace-context';

/** One job as BullMQ's `Queue#addBulk` takes it. */
export interface BulkJobSpec<D> {
  /** The job's name. */
  name: string;
  /** The job's data. */
  data: D;
  /** BullMQ job options: `jobId` is set from the item, the rest from {@link EnqueueOptions}. */
  opts: Record<string, unknown>;
}

/** What a producer needs of the queue: BullMQ's `Queue#addBulk`, and its name. */
export interface ProducerQueue {
  /**
   * The queue's name (a batch's record is kept under it and its BullMQ prefix): as BullMQ's `Queue`
   * takes it, a non-empty string without `:`.
   */
  readonly name: string;
  /**
   * Adds jobs atomically (an id already held adds nothing).
   *
   * @example
   * ```ts
   * await queue.addBulk([{ name: 'refund-request', data: { transactionHash: 'trx_1' }, opts: { jobId: 'refund-request/trx_1' } }]);
   * ```
   */
  addBulk(jobs: BulkJobSpec<unknown>[]): Promise<unknown[]>;
  /**
   * BullMQ's `Queue#toKey`: with it, a batch's record is kept under the queue's BullMQ prefix too,
   * so queues of one name under different prefixes never share a batch.
   *
   * @example
   * ```ts
   * new Queue('refunds', { connection, prefix: 'staging' }).toKey(''); // 'staging:refunds:'
   * ```
   */
  toKey?(type: string): string;
}

/** Options of the enqueue helpers. */
export interface EnqueueOptions {
  /**
   * Tries per job before it fails for a connection failure or a 5xx (429s do not count: they hold
   * the queue instead): a whole number from 1 to 1 000. Default 5.
   */
  attempts?: number;
  /**
   * Milliseconds of BullMQ's exponential back-off after the first failure: a whole number from 0
   * to 2 147 483 647. Default 1 000.
   */
  backoffMs?: number;
  /**
   * More BullMQ job options (`priority`, `removeOnComplete`…), given to every job; never `jobId`,
   * which each job takes from its item, and `attempts` or `backoff` only when `attempts` or
   * `backoffMs` above is not given (the same setting twice is refused).
   */
  jobOptions?: Record<string, unknown>;
  /**
   * A Redis connection (an `ioredis` client or a connected `redis` one) to record the batch: the
   * ids of its jobs, so that {@link followBatch} follows this batch alone, from any process.
   */
  redis?: RedisClient;
  /**
   * The batch's id (default: a random UUID): 1 to 128 letters, digits, `.`, `_`, `:` or `-`, as it
   * is part of the record's Redis key. Enqueuing again under the same id adds to it.
   */
  batchId?: string;
  /**
   * The seller every job of this call is for (see `seller` on the job data): a reference of the
   * partner's own, 1 to 256 characters, never a token. An item's own `seller` must be the same.
   */
  seller?: string;
}

/** What an enqueue call did. */
export interface EnqueuedBatch {
  /** The batch's id: give it to {@link followBatch} (recorded when `redis` was given). */
  batchId: string;
  /** Items given. */
  enqueued: number;
  /** Distinct jobs the batch covers (a transaction given twice is one job). */
  jobs: number;
}

/**
 * A job's data is kept in Redis in clear, where every reader of the queue sees it; a worker acts
 * for the one seller its client is for. An item carrying a seller's token (the shape the bulk
 * functions take) would put the token there and run for the worker's seller: refused.
 */
function refuseSellerToken(item: unknown): void {
  if (typeof item === 'object' && item !== null && Object.hasOwn(item, 'sellerToken')) {
    throw new RequestValidationError('Invalid job data', [
      {
        path: ['sellerToken'],
        message:
          "a job never carries a seller's token (job data is kept in Redis in clear): give it a `seller` reference and the worker a function of it, or run a worker per seller",
        code: 'unrecognized_keys',
      },
    ]);
  }
}

/**
 * What a validation error refused, without its issues: its message is `<what>: <issues>`, and the
 * item's error gives the issues again after its own `<what>`.
 */
function whatOf(error: RequestValidationError): string {
  const issues = `: ${describeIssues(error.issues)}`;
  return error.message.endsWith(issues) ? error.message.slice(0, -issues.length) : error.message;
}

/** An item's own `seller`, checked, and the same as the call's when both are given. */
function checkItemSeller(item: unknown, seller: string | undefined): void {
  const own = sellerOf(item);
  if (own !== undefined && seller !== undefined && own !== seller) {
    throw new RequestValidationError('Invalid job data', [
      {
        path: ['seller'],
        message: "differs from the enqueue call's seller",
        code: 'invalid_value',
      },
    ]);
  }
}

/** How many jobs one `addBulk` carries. */
const CHUNK = 500;

async function enqueue<D>(
  where: string,
  queue: ProducerQueue,
  name: (typeof JOB_NAMES)[keyof typeof JOB_NAMES],
  items: D[],
  check: (data: D) => void,
  options: EnqueueOptions,
): Promise<EnqueuedBatch> {
  checkEnqueue(where, queue, items, options);
  const { seller } = options;
  items.forEach((item, index) => {
    try {
      refuseSellerToken(item);
      checkItemSeller(item, seller);
      check(item);
    } catch (error) {
      if (!(error instanceof RequestValidationError)) throw error;
      throw new RequestValidationError(`Invalid item ${index}: ${whatOf(error)}`, error.issues);
    }
  });
  const opts = {
    attempts: options.attempts ?? 5,
    backoff: { type: 'exponential', delay: options.backoffMs ?? 1_000 },
    ...options.jobOptions,
  };
  const batchId = options.batchId ?? randomUUID();
  const trace = activeTraceContext();
  const ids = items.map((data) => jobIdOf(name, data as never));
  const jobs = new Set(ids).size;
  // Recorded first: a follower never sees a job of the batch finish before it is counted in.
  if (options.redis) await recordJobs(batchRecord(options.redis, queue, batchId), ids);
  for (let start = 0; start < items.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    const specs = chunk.map((jobId, i) => ({
      name,
      data: {
        ...items[start + i],
        ...(seller === undefined ? {} : { seller }),
        ...(trace && { trace }),
      },
      opts: { ...opts, jobId },
    }));
    await queue.addBulk(specs);
  }
  return { batchId, enqueued: items.length, jobs };
}

const checkRefund = (data: RefundJobData) => {
  encodePathParam('transactionHash', data?.transactionHash);
  checkParams(RefundRequestParamsSchema, data.params ?? {}, 'refunds.request');
  checkUnlessRefunded(data);
};

/**
 * Enqueues refund requests, one job per transaction (id `refund-request/<hash>`: a transaction
 * enqueued twice is one job while BullMQ keeps the first; an item's `unlessRefunded` refuses a
 * transaction already refunded once the job was removed). Every item is checked before any is
 * enqueued. Resolves with the batch's id (recorded for {@link followBatch} when `redis` is given)
 * and how many items and distinct jobs it has.
 *
 * @throws {RequestValidationError} an item is invalid (named by its index), or an option (named
 * with its bound): nothing enqueued, no Redis command sent.
 * @example
 * ```ts
 * import { Queue } from 'bullmq';
 * import { enqueueRefunds } from 'partner-sdk/bullmq';
 *
 * const queue = new Queue('refunds', { connection });
 * const { batchId } = await enqueueRefunds(queue, hashes.map((transactionHash) => ({ transactionHash })), { redis });
 * ```
 */
export function enqueueRefunds(
  queue: ProducerQueue,
  items: RefundJobData[],
  options: EnqueueOptions = {},
): Promise<EnqueuedBatch> {
  return enqueue('enqueueRefunds', queue, JOB_NAMES.refund, items, checkRefund, options);
}

/**
 * Enqueues refund waits, one job per transaction (id `refund-wait/<hash>`).
 *
 * @throws {RequestValidationError} an item or an option is invalid: nothing enqueued.
 * @example
 * ```ts
 * await enqueueRefundWaits(queue, hashes.map((transactionHash) => ({ transactionHash })));
 * ```
 */
export function enqueueRefundWaits(
  queue: ProducerQueue,
  items: RefundWaitJobData[],
  options: EnqueueOptions = {},
): Promise<EnqueuedBatch> {
  const check = (data: RefundWaitJobData) =>
    void encodePathParam('transactionHash', data?.transactionHash);
  return enqueue('enqueueRefundWaits', queue, JOB_NAMES.refundWait, items, check, options);
}

/**
 * Enqueues offer updates, one job per offer (id `offer-update/<product>/<offer>`).
 *
 * @throws {RequestValidationError} an item or an option is invalid: nothing enqueued.
 * @example
 * ```ts
 * await enqueueOfferUpdates(queue, [{ productHash: 'prd_1', offerCode: 'off_1', params: { price: 4_990 } }]);
 * ```
 */
export function enqueueOfferUpdates(
  queue: ProducerQueue,
  items: OfferUpdateJobData[],
  options: EnqueueOptions = {},
): Promise<EnqueuedBatch> {
  const check = (data: OfferUpdateJobData) => {
    encodePathParam('productHash', data?.productHash);
    encodePathParam('offerCode', data.offerCode);
    checkParams(OfferUpdateParamsSchema, data.params, 'offers.update');
  };
  return enqueue('enqueueOfferUpdates', queue, JOB_NAMES.offerUpdate, items, check, options);
}
