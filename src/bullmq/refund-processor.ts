/**
 * The processor of refund request jobs: a job run again reconciles before it sends, a lease per
 * transaction keeps two runs of one job from sending at once, and `unlessRefunded` refuses a
 * transaction an earlier job refunded.
 *
 * @module
 */

import { RateLimitError } from 'bullmq';
import { refuseIfRefunded } from '../bulk/already-refunded';
import type { RequestOptions } from '../core/options';
import { loginHeldFor } from '../core/retry/classify';
import type { IoredisClient, RedisClient } from '../redis/client';
import { heedHold, type RateLimitedQueue, rethrowForBullmq } from './failures';
import { clientOfJob, type JobClient, type JobClients } from './job-client';
import { checkUnlessRefunded, jobDataOf, type RefundJobData } from './jobs';
import {
  callOptions,
  checkArguments,
  type ProcessorJob,
  type ProcessorOptions,
  type QueueJobResult,
  telemetryOf,
} from './processors';
import { type HeldLease, type JobRun, RefundLeases } from './refund-lease';
import { type RefundRun, withRefundTruth } from './refund-truth';
import { tracedProcessor } from './telemetry';

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

/** This run of `job` as its put-backs are marked, when BullMQ names the job and counts its starts. */
const runOf = (job: ProcessorJob<unknown>): JobRun | undefined =>
  job.id === undefined || job.attemptsStarted === undefined
    ? undefined
    : { job: `${job.id}@${job.timestamp}`, run: job.attemptsStarted };

/**
 * Whether an earlier run of this job may have sent its refund: it failed (a retry), or it was
 * started before (a stalled job taken over after a worker died) and the leases do not say that
 * every earlier start was put back unsent (a queue's hold, a held login: BullMQ counts those too).
 */
async function mayHaveSent(job: ProcessorJob<RefundJobData>, leases: RefundLeases | undefined) {
  if (job.attemptsMade > 0) return true;
  const at = runOf(job);
  if (!at || at.run <= 1) return (job.attemptsStarted ?? 0) > 1;
  return !(await leases?.unsentBefore(job.data.transactionHash, at));
}

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
 * @param clients A seller client (`client.forUser(token)`) every job runs as, or a function that
 * picks the client of a job's `seller` (see {@link JobClients}): one queue for many sellers.
 * @throws {RequestValidationError} an option or the client is invalid (named with its bound), when
 * the processor is made.
 * @example
 * ```ts
 * import { Queue, Worker } from 'bullmq';
 * import { refundProcessor } from 'partner-sdk/bullmq';
 *
 * const queue = new Queue('refunds', { connection });
 * const worker = new Worker('refunds', refundProcessor(seller, { queue }), { connection, concurrency: 8 });
 * // Many sellers on one queue: each job's `seller` picks its client.
 * refundProcessor(async (account) => client.forUser(await sellerTokens.get(account)), { queue });
 * ```
 */
export function refundProcessor(
  clients: JobClients,
  options: RefundProcessorOptions,
): (
  job: ProcessorJob<RefundJobData>,
  token?: string,
  signal?: AbortSignal,
) => Promise<QueueJobResult> {
  checkArguments('refundProcessor', clients, options, true);
  let leases: Promise<RefundLeases | undefined> | undefined;
  const name = 'bullmq.refunds.request';
  return tracedProcessor(name, telemetryOf(clients, options), async (job, signal) => {
    leases ??= leasesOf(options);
    let lease: HeldLease | undefined;
    const run: RefundRun = { sent: false, checkedNone: false, sentBefore: false };
    try {
      const { transactionHash } = jobDataOf(job, ['transactionHash']);
      checkUnlessRefunded(job.data);
      await heedHold(options.queue);
      const client = await clientOfJob(clients, job, signal);
      lease = await (await leases)?.acquire(transactionHash, signal);
      const reconcile = lease?.waited || (await mayHaveSent(job, await leases));
      const request = callOptions(options, signal);
      const markSent = async () => markSentRun(job, await leases);
      return await refundOnce(client, options, job, { request, reconcile, run, markSent });
    } catch (error) {
      // Awaited here, so that its rejection is handled before the lease is given back.
      return await rethrowForBullmq(error, options.queue).catch(async (thrown: unknown) => {
        await markPutBack(thrown, error, job, run.sent, await leases);
        run.sentBefore = await sentBeforeThisRun(thrown, job, run, await leases);
        throw withRefundTruth(thrown, error, run, job.failedReason);
      });
    } finally {
      await lease?.release();
    }
  });
}

/**
 * Marks this run put back unsent when BullMQ is told to put it back (`thrown`) and its refund
 * request never went out: not sent, or failed before sending on a login the client holds back.
 */
async function markPutBack(
  thrown: unknown,
  error: unknown,
  job: ProcessorJob<RefundJobData>,
  sent: boolean,
  leases: RefundLeases | undefined,
): Promise<void> {
  const at = runOf(job);
  if (!(thrown instanceof RateLimitError) || !at || !leases || job.attemptsMade > 0) return;
  if (sent && loginHeldFor(error) === undefined) return;
  await leases.markUnsent(job.data.transactionHash, at);
}

/** Marks this run's refund request sent, just before it goes out. */
async function markSentRun(job: ProcessorJob<RefundJobData>, leases: RefundLeases | undefined) {
  const at = runOf(job);
  if (at && leases) await leases.markSent(job.data.transactionHash, at);
}

/**
 * Whether a run before this failing one marked its refund request sent. Read only when this run
 * neither sent (what it sent speaks for itself) nor found that no refund was made.
 */
async function sentBeforeThisRun(
  thrown: unknown,
  job: ProcessorJob<RefundJobData>,
  run: RefundRun,
  leases: RefundLeases | undefined,
): Promise<boolean> {
  const at = runOf(job);
  const hash = job.data?.transactionHash;
  if (thrown instanceof RateLimitError || run.sent || run.checkedNone) return false;
  if (!at || !leases || typeof hash !== 'string') return false;
  return leases.sentBefore(hash, at);
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
  client: JobClient,
  options: RefundProcessorOptions,
  job: ProcessorJob<RefundJobData>,
  how: {
    request: RequestOptions;
    reconcile: boolean;
    run: RefundRun;
    markSent: () => Promise<void>;
  },
): Promise<QueueJobResult> {
  const { transactionHash: key, params } = job.data;
  const { request, run } = how;
  if (how.reconcile) {
    // The producer's clock, not this worker's: searched from it less the skew bound.
    const since = { otherMachine: new Date(job.timestamp) };
    const made = await client.refunds.findCreatedSince(key, since, request);
    if (made) {
      const result = { kind: 'existing', refund: made.hash, status: made.status };
      return { status: 'succeeded', key, reconciled: true, result };
    }
    run.checkedNone = true;
  }
  if (job.data.unlessRefunded ?? options.unlessRefunded) {
    await refuseIfRefunded(client, key, request);
  }
  await how.markSent();
  run.sent = true;
  const answer = await client.refunds.request(key, params ?? {}, request);
  if (answer.kind === 'accepted') {
    return { status: 'succeeded', key, reconciled: false, result: { kind: 'accepted' } };
  }
  const result = { kind: 'existing', refund: answer.refund.hash, status: answer.refund.status };
  return { status: 'existing', key, reconciled: false, result };
}
