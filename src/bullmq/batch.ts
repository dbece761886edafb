/**
 * A batch's record in Redis, next to its queue: the ids of its jobs
 * (`<prefix>batch:{<bullmq prefix>:<queue>/<batch>}:jobs`, a set) and a mark that it exists
 * (`…:size`), kept for a week. The batch's size is the set's: enqueuing again under the same id
 * adds to it. A job that an earlier batch already put on the queue (the same transaction enqueued
 * again) belongs to both: each batch follows it.
 *
 * @module
 */

import { type Commands, connect, type RedisClient } from '../redis/client';

/** How long a batch's record is kept after its last enqueue, in seconds. */
const KEEP_SECONDS = String(7 * 24 * 3600);

/** How many ids one `SADD` carries. */
const CHUNK = 1_000;

/** The keys of one batch's record. @internal */
export interface BatchKeys {
  jobs: string;
  size: string;
}

/** What names a queue in Redis: its name, and BullMQ's `toKey` when it has one (the prefix). */
export interface NamedQueue {
  readonly name: string;
  toKey?(type: string): string;
}

/** The Redis commands and keys of a batch. @internal */
export function batchRecord(
  redis: RedisClient,
  queue: NamedQueue,
  batchId: string,
): { commands: Commands; keys: BatchKeys } {
  const { commands, prefix } = connect(redis, {});
  // Two queues of one name under different BullMQ prefixes (two environments on one Redis) are
  // different queues: their batches must not share a record.
  const queueKey = queue.toKey ? queue.toKey('').replace(/:$/, '') : queue.name;
  const base = `${prefix}batch:{${queueKey}/${batchId}}`;
  return { commands, keys: { jobs: `${base}:jobs`, size: `${base}:size` } };
}

/**
 * Adds every job id of one enqueue call to the batch's record, before any of them is added to the
 * queue: a follower then knows the batch's whole size before it sees one of its jobs finish.
 */
export async function recordJobs(
  record: { commands: Commands; keys: BatchKeys },
  ids: string[],
): Promise<void> {
  const { commands, keys } = record;
  for (let start = 0; start < ids.length; start += CHUNK) {
    await commands.send(['SADD', keys.jobs, ...ids.slice(start, start + CHUNK)]);
  }
  await commands.send(['EXPIRE', keys.jobs, KEEP_SECONDS]);
  const size = await commands.send(['SCARD', keys.jobs]);
  await commands.send(['SET', keys.size, String(size), 'EX', KEEP_SECONDS]);
}
