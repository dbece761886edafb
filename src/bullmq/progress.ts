/**
 * A batch's progress on a BullMQ queue, readable from any process: done, failed, waiting, active,
 * the rate over the last few seconds, the time left. A batch recorded by the producer is followed
 * alone (its jobs' states in the queue's own sets, read only for the jobs not yet finished);
 * without a batch id, the whole queue's counts.
 *
 * @module
 */

import { sleep } from '../core/time/sleep';
import type { RedisClient } from '../redis/client';
import { type BatchCounter, batchCounter } from './batch-progress';
import { checkFollow } from './options';

/** What progress reads of the queue: BullMQ's `Queue#getJobCounts`. */
export interface CountedQueue {
  /**
   * Counts of jobs by state.
   *
   * @example
   * ```ts
   * await queue.getJobCounts('completed', 'failed'); // { completed: 120, failed: 2 }
   * ```
   */
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

/** What following one batch reads of the queue: its name and the keys of its job sets. */
export interface BatchQueue {
  /** The queue's name: as BullMQ's `Queue` takes it, a non-empty string without `:`. */
  readonly name: string;
  /**
   * BullMQ's `Queue#toKey`: the Redis key of one of the queue's structures (`completed`,
   * `failed`, `active`) or of one job (its id: a failed job's reason is read there).
   *
   * @example
   * ```ts
   * queue.toKey('completed'); // 'bull:refunds:completed'
   * ```
   */
  toKey(type: string): string;
}

/** A batch's progress: the queue's counts, with rate and time left. */
export interface QueueProgress {
  /** Jobs finished: completed or failed for good. */
  done: number;
  /** Jobs completed (`succeeded` or `existing` results). */
  completed: number;
  /** Jobs failed for good (a typed refusal, or out of attempts). */
  failed: number;
  /**
   * Following one batch: its failed jobs counted by the error their `failedReason` names
   * (`AlreadyRefundedError`, `NotFoundError`…, as the SDK's processors fail a job for good), a
   * reason that names none (out of attempts, stalled) as `Error`. Each failed job's reason is
   * read once. Following the whole queue: `undefined` (it would read every failed job).
   */
  failedBy?: Record<string, number>;
  /** Jobs waiting (rate-limited ones included), delayed (back-off) or prioritized. */
  waiting: number;
  /** Jobs a worker is running now. */
  active: number;
  /** The batch's size when known (the `total` option), else done + waiting + active. */
  total: number;
  /** Jobs finished per second over the last few seconds. */
  ratePerSecond: number;
  /** Estimated milliseconds left, when the rate is not zero. */
  etaMs: number | undefined;
}

const STATES = ['completed', 'failed', 'waiting', 'delayed', 'prioritized', 'active'];
const RATE_WINDOW_MS = 5_000;

/** How {@link followBatch} follows a batch. */
export interface FollowBatchOptions {
  /**
   * The batch's size, when known (following the whole queue): progress then has a percentage and
   * a time left. A recorded batch knows its own size.
   */
  total?: number;
  /** How often the queue's counts are read, in milliseconds (default 1 000). */
  intervalMs?: number;
  /** Stops following (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /**
   * Called with every report, the first one at once.
   *
   * @example
   * ```ts
   * onProgress: (p) => console.error(`${p.done}/${p.total} done`),
   * ```
   */
  onProgress?: (progress: QueueProgress) => void;
}

/** How {@link followBatch} follows one recorded batch. */
export interface FollowOneBatchOptions extends Omit<FollowBatchOptions, 'total'> {
  /** The Redis connection the batch was recorded with (`ioredis` or a connected `redis` client). */
  redis: RedisClient;
}

/**
 * Follows one batch, recorded by an enqueue helper given `redis`, until each of its jobs has
 * completed or failed for good: calls `onProgress` every `intervalMs` (default 1 000) and resolves
 * with the last report. Other batches on the same queue are not counted. Any process can follow a
 * batch: a dashboard, the CLI, the producer.
 *
 * @throws {RequestValidationError} an option, the batch id or the queue's name is invalid (named
 * with its bound): no Redis command sent.
 * @throws {BatchNotRecordedError} the batch has no record (enqueued without `redis`, or over a week
 * ago).
 * @example
 * ```ts
 * import { enqueueRefunds, followBatch } from 'partner-sdk/bullmq';
 *
 * const { batchId } = await enqueueRefunds(queue, items, { redis });
 * const last = await followBatch(queue, batchId, {
 *   redis,
 *   onProgress: (p) => console.error(`${p.done}/${p.total} · ${p.ratePerSecond.toFixed(0)}/s`),
 * });
 * ```
 */
export function followBatch(
  queue: BatchQueue,
  batchId: string,
  options: FollowOneBatchOptions,
): Promise<QueueProgress>;
/**
 * Follows the whole queue until no job is left waiting or active (and `total` are done, when
 * given): every batch on it is counted.
 *
 * @example
 * ```ts
 * const last = await followBatch(queue, { total: hashes.length, onProgress: (p) => console.error(p.done) });
 * ```
 */
export function followBatch(
  queue: CountedQueue,
  options?: FollowBatchOptions,
): Promise<QueueProgress>;
export async function followBatch(
  queue: CountedQueue | BatchQueue,
  batchOrOptions?: string | FollowBatchOptions,
  batchOptions?: FollowOneBatchOptions,
): Promise<QueueProgress> {
  // A batch id given that is not a string is still one batch's id, refused by its check.
  const one = batchOptions !== undefined || typeof batchOrOptions === 'string';
  checkFollow(queue, one, batchOrOptions, one ? batchOptions : batchOrOptions);
  const options = (one ? batchOptions : batchOrOptions) ?? {};
  const counter: BatchCounter | undefined = one
    ? batchCounter(
        queue as BatchQueue,
        batchOrOptions as string,
        (batchOptions as FollowOneBatchOptions).redis,
      )
    : undefined;
  const samples: { at: number; done: number }[] = [];
  for (;;) {
    const counts = counter
      ? await counter.counts()
      : await (queue as CountedQueue).getJobCounts(...STATES);
    const total = counter ? counter.size() : (options as FollowBatchOptions).total;
    const progress = report(counts, samples, total);
    if (counter) progress.failedBy = counter.failedBy();
    options.onProgress?.(progress);
    const pending = progress.waiting + progress.active;
    if (pending === 0 && (total === undefined || progress.done >= total)) return progress;
    await sleep(options.intervalMs ?? 1_000, options.signal);
  }
}

function report(
  counts: Record<string, number>,
  samples: { at: number; done: number }[],
  total: number | undefined,
): QueueProgress {
  const n = (state: string) => Number(counts[state] ?? 0);
  const completed = n('completed');
  const failed = n('failed');
  const done = completed + failed;
  const waiting = n('waiting') + n('delayed') + n('prioritized');
  const active = n('active');
  const now = performance.now();
  samples.push({ at: now, done });
  while (samples.length > 2 && now - samples[0]!.at > RATE_WINDOW_MS) samples.shift();
  const first = samples[0]!;
  const span = now - first.at;
  const ratePerSecond = span > 0 ? ((done - first.done) * 1000) / span : 0;
  const size = total ?? done + waiting + active;
  const left = Math.max(0, size - done);
  const etaMs = left === 0 ? 0 : ratePerSecond > 0 ? (left / ratePerSecond) * 1000 : undefined;
  return { done, completed, failed, waiting, active, total: size, ratePerSecond, etaMs };
}
