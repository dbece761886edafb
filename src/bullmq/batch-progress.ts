/**
 * Counting one batch's jobs by state: its job ids from the batch's record, then, for the ids not
 * yet known finished, one `ZMSCORE` on the queue's completed set and one on its failed set per
 * thousand ids, and the queue's active list (as long as the workers' concurrency); and, once, the
 * reason of each job found failed. A finished job stays finished, so each read costs what is left
 * of the batch, never the whole queue.
 *
 * @module
 */

import { PartnerError } from '../core/errors';
import type { Commands, RedisClient } from '../redis/client';
import { batchRecord } from './batch';
import { errorNameOfReason } from './failures';
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
export class BatchNotRecordedError extends PartnerError {
  /** The batch id that has no record. */
  readonly batchId: string;

  constructor(batchId: string, queueName: string) {
    super(
      `No record of batch "${batchId}" on queue "${queueName}": enqueue it with the \`redis\` option (records are kept for a week).`,
    );
    this.batchId = batchId;
  }
}
// Its own brand: without one, `instanceof BatchNotRecordedError` would match every PartnerError.
Object.defineProperty(BatchNotRecordedError, Symbol.for('partner-sdk.error.brand'), {
  value: 'partner-sdk.BatchNotRecordedError',
});

/** One batch's counts, read again on every call. @internal */
export interface BatchCounter {
  /** `completed`, `failed`, `waiting` (delayed and rate-limited included) and `active`. */
  counts(): Promise<Record<string, number>>;
  /** The batch's size, as last read. */
  size(): number;
  /** The failed jobs counted by the error their reason names, as last read. */
  failedBy(): Record<string, number>;
}

/** The batch's finished jobs, and its failed ones by error name, as far as read. */
interface Finished {
  states: Map<string, 'completed' | 'failed'>;
  failedBy: Record<string, number>;
}

/**
 * Looks up `pending` ids in the queue's completed and failed sets, a thousand at a time, and
 * records those found finished. Each failed job's reason is read once, when it is first seen
 * failed: the cost is the failures', never the batch's.
 */
async function settle(
  commands: Commands,
  queue: BatchQueue,
  pending: string[],
  finished: Finished,
): Promise<void> {
  const scores = async (key: string, chunk: string[]) =>
    (await commands.send(['ZMSCORE', key, ...chunk])) as (string | null)[];
  for (let start = 0; start < pending.length; start += CHUNK) {
    const chunk = pending.slice(start, start + CHUNK);
    const [completed, failed] = await Promise.all([
      scores(queue.toKey('completed'), chunk),
      scores(queue.toKey('failed'), chunk),
    ]);
    const failing = chunk.filter((_, i) => completed[i] == null && failed[i] != null);
    for (const [i, id] of chunk.entries()) {
      if (completed[i] != null) finished.states.set(id, 'completed');
    }
    const reasons = await Promise.all(
      failing.map((id) => commands.send(['HGET', queue.toKey(id), 'failedReason'])),
    );
    failing.forEach((id, i) => {
      finished.states.set(id, 'failed');
      const name = errorNameOfReason(reasons[i]);
      finished.failedBy[name] = (finished.failedBy[name] ?? 0) + 1;
    });
  }
}

/** A counter of batch `batchId` on `queue`. @internal */
export function batchCounter(queue: BatchQueue, batchId: string, redis: RedisClient): BatchCounter {
  const { commands, keys } = batchRecord(redis, queue, batchId);
  let ids: string[] = [];
  let size = 0;
  const done: Finished = { states: new Map(), failedBy: {} };
  const finished = done.states;

  return {
    size: () => size,
    failedBy: () => ({ ...done.failedBy }),
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
      await settle(
        commands,
        queue,
        ids.filter((id) => !finished.has(id)),
        done,
      );
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
