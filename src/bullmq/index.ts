/**
 * `partner-sdk/bullmq`: bulk work (refund requests, refund waits, offer updates) on a BullMQ
 * queue, for backends that run a pool of workers: a producer helper whose job ids come from the
 * items (a transaction enqueued twice is one job), ready processors for a `Worker` (a 429 holds
 * the whole queue for `Retry-After`, a typed refusal fails without retry, a connection failure or
 * 5xx is retried with BullMQ's back-off, and a refund job run again reconciles before it sends),
 * plain-data results with the bulk outcome kinds, and a batch's progress from any process. One
 * queue serves many sellers when its jobs carry a `seller` reference and the worker picks the
 * seller's client from it.
 *
 * BullMQ is an optional peer: install it to use this entry point; the root entry never loads it.
 * The guide: `docs/bullmq.md`.
 *
 * @example
 * ```ts
 * import { Queue, Worker } from 'bullmq';
 * import { enqueueRefunds, refundProcessor } from 'partner-sdk/bullmq';
 *
 * const connection = { host: '127.0.0.1', port: 6379 };
 * const queue = new Queue('refunds', { connection });
 * new Worker('refunds', refundProcessor(seller, { queue }), { connection, concurrency: 8 });
 * const { batchId } = await enqueueRefunds(queue, hashes.map((transactionHash) => ({ transactionHash })), { redis });
 * ```
 *
 * @module partner-sdk/bullmq
 */

export { BatchNotRecordedError } from './batch-progress';
export type { RateLimitedQueue } from './failures';
export type { JobClient, JobClients, SellerResolver } from './job-client';
export {
  JOB_NAMES,
  jobIdOf,
  type OfferUpdateJobData,
  type RefundJobData,
  type RefundWaitJobData,
} from './jobs';
export {
  offerUpdateProcessor,
  type ProcessorJob,
  type ProcessorOptions,
  type QueueJobResult,
  refundWaitProcessor,
} from './processors';
export {
  type BulkJobSpec,
  type EnqueuedBatch,
  type EnqueueOptions,
  enqueueOfferUpdates,
  enqueueRefunds,
  enqueueRefundWaits,
  type ProducerQueue,
} from './producer';
export {
  type BatchQueue,
  type CountedQueue,
  type FollowBatchOptions,
  type FollowOneBatchOptions,
  followBatch,
  type QueueProgress,
} from './progress';
export { RefundLeaseBusyError } from './refund-lease';
export { type RefundProcessorOptions, refundProcessor } from './refund-processor';
export type { JobTraceContext } from './trace-context';
