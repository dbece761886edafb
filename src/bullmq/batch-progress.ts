/**
 * Counting one batch's jobs by state: its job ids from the batch's record, then, for the ids not
 * yet known finished, one `ZMSCORE` on the queue's completed set and one on its failed set per
 * thousand ids, and the queue's active list (as long as the workers' concurrency). A finished
 * job stays finished, so each read costs what is left of the batch, never the whole queue.
 *
 * @module
 */

import type { RedisClient } from '../redis/client';
import { batchRecord } from './batch';
import type { BatchQueue } from './progress';

/** How many ids one `ZMSCORE` carries. */
const CHUNK = 1_000;

/**
 * Thrown by `followBatch` for a batch Redis has no record of: it was enqueued without the `redis`
 * option, under another id, or over a week ago (records expire then).
 *
 * @example
 * ```ts
 * try {
 *   await followBatch(queue, 'cohort-7', { redis });
 * } catch (error) {
 *   if (error instanceof BatchNotRecordedError) console.error(`no batch ${error.batchId}`);
 *   else throw error;
 * }
 * ```
 */
export class BatchNotRecordedError extends Error {
  /** `'BatchNotRecordedError'`. */
  override readonly name = 'BatchNotRecordedError';
  /** The batch id that has no record. */
  readonly batchId: string;

  constructor(batchId: string, queueName: string) {
    super(
      `No record of batch "${batchId}" on queue "${queueName}": enqueue it with the \`redis\` option (records are kept for a week).`,
    );
    this.batchId = batchId;
  }
}

/** One batch's counts, read again on every call. @internal */
export interface BatchCounter {
  /** `completed`, `failed`, `waiting` (delayed and rate-limited included) and `active`. */
  counts(): Promise<Record<string, number>>;
  /** The batch's size, as last read. */
  size(): number;
}

/** A counter of batch `batchId` on `queue`. @internal */
export function batchCounter(queue: BatchQueue, batchId: string, redis: RedisClient): BatchCounter {
  const { commands, keys } = batchRecord(redis, queue, batchId);
  let ids: string[] = [];
  let size = 0;
  const finished = new Map<string, 'completed' | 'failed'>();

  const scores = async (key: string, chunk: string[]) =>
    (await commands.send(['ZMSCORE', key, ...chunk])) as (string | null)[];

  async function settle(pending: string[]): Promise<void> {
    for (let start = 0; start < pending.length; start += CHUNK) {
      const chunk = pending.slice(start, start + CHUNK);
      const [completed, failed] = await Promise.all([
        scores(queue.toKey('completed'), chunk),
        scores(queue.toKey('failed'), chunk),
      ]);
      chunk.forEach((id, i) => {
        if (completed[i] != null) finished.set(id, 'completed');
        else if (failed[i] != null) finished.set(id, 'failed');
      });
    }
  }

  return {
    size: () => size,
    async counts() {
      const recorded = await commands.send(['GET', keys.size]);
      if (recorded == null) {
        throw new BatchNotRecordedError(batchId, queue.name);
      }
      // The set is the batch: an enqueue under the same id adds to it after the mark was written.
      if (Number(await commands.send(['SCARD', keys.jobs])) !== ids.length) {
        ids = (await commands.send(['SMEMBERS', keys.jobs])) as string[];
      }
      size = ids.length;
      await settle(ids.filter((id) => !finished.has(id)));
      const running = new Set(
        (await commands.send(['LRANGE', queue.toKey('active'), '0', '-1'])) as string[],
      );
      let completed = 0;
      let active = 0;
      for (const id of ids) {
        const state = finished.get(id);
        if (state === 'completed') completed++;
        else if (state === undefined && running.has(id)) active++;
      }
      const failed = finished.size - completed;
      const waiting = Math.max(0, size - finished.size - active);
      return { completed, failed, waiting, active };
    },
  };
}
