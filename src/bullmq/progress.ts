/**
 * A batch's progress on a BullMQ queue, readable from any process (it is the queue's own counts
 * in Redis): done, failed, waiting, active, the rate over the last few seconds, the time left.
 *
 * @module
 */

import { sleep } from '../core/time/sleep';

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

/** A batch's progress: the queue's counts, with rate and time left. */
export interface QueueProgress {
  /** Jobs finished: completed or failed for good. */
  done: number;
  /** Jobs completed (`succeeded` or `existing` results). */
  completed: number;
  /** Jobs failed for good (a typed refusal, or out of attempts). */
  failed: number;
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
  /** The batch's size, when known: progress then has a percentage and a time left. */
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

/**
 * Follows a batch until no job is left waiting or active: calls `onProgress` every `intervalMs`
 * (default 1 000) and resolves with the last report. Any process can follow a batch: a
 * dashboard, the CLI, the producer.
 *
 * @example
 * ```ts
 * import { followBatch } from 'partner-sdk/bullmq';
 *
 * const last = await followBatch(queue, {
 *   total: hashes.length,
 *   onProgress: (p) => console.error(`${p.done}/${p.total} · ${p.ratePerSecond.toFixed(0)}/s`),
 * });
 * ```
 */
export async function followBatch(
  queue: CountedQueue,
  options: FollowBatchOptions = {},
): Promise<QueueProgress> {
  const samples: { at: number; done: number }[] = [];
  for (;;) {
    const counts = await queue.getJobCounts(...STATES);
    const progress = report(counts, samples, options.total);
    options.onProgress?.(progress);
    const pending = progress.waiting + progress.active;
    if (pending === 0 && (options.total === undefined || progress.done >= options.total)) {
      return progress;
    }
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
