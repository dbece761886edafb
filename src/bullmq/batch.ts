/**
 * A batch's record in Redis: the ids of the jobs one enqueue call covers
 * (`<prefix>batch:{<queue>/<batch>}:jobs`, a set) and how many there are (`…:size`), kept for a
 * week. A job that an earlier batch already put on the queue (the same transaction enqueued
 * again) belongs to both: each batch follows it.
 *
 * @module
 */

import { type Commands, connect, type RedisClient } from '../redis/client';

/** How long a batch's record is kept after its last enqueue, in seconds. */
const KEEP_SECONDS = String(7 * 24 * 3600);

/** The keys of one batch's record. @internal */
export interface BatchKeys {
  jobs: string;
  size: string;
}

/** The Redis commands and keys of a batch. @internal */
export function batchRecord(
  redis: RedisClient,
  queueName: string,
  batchId: string,
): { commands: Commands; keys: BatchKeys } {
  const { commands, prefix } = connect(redis, {});
  const base = `${prefix}batch:{${queueName}/${batchId}}`;
  return { commands, keys: { jobs: `${base}:jobs`, size: `${base}:size` } };
}

/** Records the batch's size before any of its jobs is added (a follower then knows its end). */
export async function recordSize(
  record: { commands: Commands; keys: BatchKeys },
  size: number,
): Promise<void> {
  await record.commands.send(['SET', record.keys.size, String(size), 'EX', KEEP_SECONDS]);
}

/** Adds job ids to the batch's record. */
export async function recordJobs(
  record: { commands: Commands; keys: BatchKeys },
  ids: string[],
): Promise<void> {
  if (ids.length === 0) return;
  await record.commands.send(['SADD', record.keys.jobs, ...ids]);
  await record.commands.send(['EXPIRE', record.keys.jobs, KEEP_SECONDS]);
}
