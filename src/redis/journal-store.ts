/**
 * The bulk-job journal on Redis: one hash per job (`<prefix>journal:{<job>}`), a field per item key
 * holding its last record as JSON, the hash's expiry renewed by every put.
 *
 * @module
 */

import { asJournalRecord, type JournalRecord, type JournalStore } from '../bulk/journal';
import { type Commands, connect, type RedisClient, type RedisStoreOptions, Script } from './client';
import { RedisStoreError } from './errors';

/** Options of {@link RedisJournalStore}. */
export interface RedisJournalStoreOptions extends RedisStoreOptions {
  /**
   * Milliseconds a job's journal is kept after its last record: long enough to resume the job
   * after any outage you plan for. Default 2 592 000 000 (30 days).
   */
  ttlMs?: number;
}

// The record and the renewed expiry in one step, so that no journal is ever left without one.
const PUT = new Script(`
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`);

/**
 * A bulk-job journal (`JournalStore` of `partner-sdk/bulk`) on Redis, so that a job killed on one
 * machine resumes on another: every item's intent and outcome are in Redis, not on a disk.
 * A put resolves once Redis acknowledged it; how durable that is across a Redis crash is the
 * server's persistence setting (`appendonly yes` with `appendfsync always` for every record).
 *
 * Redis down or slow (no answer within `commandTimeoutMs`): `get` and `put` reject with
 * {@link RedisStoreError}, so the job stops before sending the item whose intent was not recorded;
 * run it again with the same job id once Redis is back, and it resumes.
 *
 * @example
 * ```ts
 * import Redis from 'ioredis';
 * import { requestRefunds } from 'partner-sdk/bulk';
 * import { RedisJournalStore } from 'partner-sdk/redis';
 *
 * const store = new RedisJournalStore(new Redis(process.env.REDIS_URL));
 * await requestRefunds(seller, hashes, { journal: { store, job: 'cohort-2026-11' } });
 * ```
 */
export class RedisJournalStore implements JournalStore {
  readonly #commands: Commands;
  readonly #prefix: string;
  readonly #ttlMs: number;
  #closed = false;

  constructor(client: RedisClient, options: RedisJournalStoreOptions = {}) {
    const { commands, prefix } = connect(client, options);
    this.#commands = commands;
    this.#prefix = `${prefix}journal:`;
    const ttlMs = options.ttlMs ?? 2_592_000_000;
    // Not a timer, so not bound by the timers' 2^31-1 ms; Redis takes any positive integer.
    if (!Number.isSafeInteger(Math.ceil(ttlMs)) || ttlMs <= 0) {
      throw new RangeError(`\`ttlMs\` must be a positive number of milliseconds (got ${ttlMs}).`);
    }
    this.#ttlMs = ttlMs;
  }

  /**
   * The last record of `key` in job `job`, or `undefined`.
   *
   * @example
   * ```ts
   * const record = await store.get('cohort-2026-11', 'trx_1'); // { state: 'succeeded', … }
   * ```
   */
  async get(job: string, key: string): Promise<JournalRecord | undefined> {
    this.#open();
    const raw = await this.#commands.send(['HGET', this.#hash(job), key]);
    if (raw === null || raw === undefined) return undefined;
    let record: JournalRecord | undefined;
    try {
      record = asJournalRecord(JSON.parse(String(raw)));
    } catch {
      record = undefined;
    }
    if (!record || record.job !== job || record.key !== key) {
      throw new RedisStoreError(`the Redis journal of job "${job}" holds an unreadable record`);
    }
    return record;
  }

  /**
   * Stores `record` as the last of its key; resolves once Redis acknowledged it.
   *
   * @example
   * ```ts
   * await store.put({ job: 'cohort-2026-11', key: 'trx_1', state: 'intent', at: new Date().toISOString() });
   * ```
   */
  async put(record: JournalRecord): Promise<void> {
    this.#open();
    await this.#commands.eval(
      PUT,
      [this.#hash(record.job)],
      [record.key, JSON.stringify(record), String(Math.ceil(this.#ttlMs))],
    );
  }

  /**
   * Ends this store's use (every put has already been acknowledged); the Redis client stays open,
   * it is the application's.
   *
   * @example
   * ```ts
   * await store.close();
   * ```
   */
  async close(): Promise<void> {
    this.#closed = true;
  }

  #hash(job: string): string {
    return `${this.#prefix}{${job}}`;
  }

  #open(): void {
    if (this.#closed) throw new RedisStoreError('this Redis journal store was closed');
  }
}
