/**
 * The bulk-job journal on Redis: one hash per job (`<prefix>journal:{<job>}`), a field per item key
 * holding its last record as JSON, the hash's expiry renewed by every put; beside it the job's
 * lease (`<prefix>journal-lease:{<job>}`), its one writer.
 *
 * @module
 */

import { asJournalRecord, type JournalRecord, type JournalStore } from '../bulk/journal';
import { type Commands, connect, type RedisClient, type RedisStoreOptions, Script } from './client';
import { RedisStoreError } from './errors';
import { JournalLeases, lockedBy, takenOver } from './journal-lease';

/** Options of {@link RedisJournalStore}. */
export interface RedisJournalStoreOptions extends RedisStoreOptions {
  /**
   * Milliseconds a job's journal is kept after its last record: long enough to resume the job
   * after any outage you plan for. Default 2 592 000 000 (30 days).
   */
  ttlMs?: number | undefined;
  /**
   * Milliseconds a job's lease lasts unless its runner renews it (it does, three times per lease,
   * while it runs): how long a runner that died keeps the next one waiting. Default 30 000.
   */
  leaseMs?: number | undefined;
}

// The record and the renewed expiry in one step, so that no journal is ever left without one;
// refused when another runner holds the job's lease (checked in the same step, so no record of a
// second writer ever lands). A runner whose lease ran out takes it back if nobody claimed the job
// since (2: another did, while this one was paused).
const PUT = new Script(`
local holder = redis.call('GET', KEYS[2])
if holder ~= false and holder ~= ARGV[4] then
  return {0, holder, redis.call('PTTL', KEYS[2])}
end
if holder == false and ARGV[4] ~= '' then
  local owner = redis.call('GET', KEYS[3])
  if owner ~= false and owner ~= ARGV[4] then return {2, owner} end
  redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[5])
  redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[6])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1}
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
 * One writer per job: a bulk job claims the job's lease before it reads its first item and renews
 * it while it runs; a second runner (another process, another store) is refused with
 * `JournalLockedError` (naming the holder's pid, host and since) and sends nothing. When the
 * holder dies, its lease runs out after `leaseMs` and the next runner takes the job over. Every
 * put checks the lease in the same script that writes, so a runner that lost its lease (paused
 * longer than `leaseMs` while another took over) can record, and so send, nothing more.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { requestRefunds } from 'partner-sdk/bulk';
 * import { RedisJournalStore } from 'partner-sdk/redis';
 *
 * const store = new RedisJournalStore(new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'));
 * await requestRefunds(seller, hashes, { journal: { store, job: 'cohort-2026-11' } });
 * ```
 */
export class RedisJournalStore implements JournalStore {
  readonly #commands: Commands;
  readonly #prefix: string;
  readonly #leasePrefix: string;
  readonly #ttlMs: number;
  readonly #leaseMs: number;
  readonly #leases: JournalLeases;
  #closed = false;

  constructor(client: RedisClient, options: RedisJournalStoreOptions = {}) {
    const { commands, prefix } = connect(client, options);
    this.#commands = commands;
    this.#prefix = `${prefix}journal:`;
    this.#leasePrefix = `${prefix}journal-lease:`;
    const ttlMs = options.ttlMs ?? 2_592_000_000;
    // Not a timer, so not bound by the timers' 2^31-1 ms; Redis takes any positive integer.
    if (!Number.isSafeInteger(Math.ceil(ttlMs)) || ttlMs <= 0) {
      throw new RangeError(`\`ttlMs\` must be a positive number of milliseconds (got ${ttlMs}).`);
    }
    this.#ttlMs = ttlMs;
    const leaseMs = options.leaseMs ?? 30_000;
    if (!Number.isInteger(leaseMs) || leaseMs < 100 || leaseMs > 2_147_483_647) {
      throw new RangeError(
        `\`leaseMs\` must be a whole number of milliseconds from 100 to 2147483647 (got ${leaseMs}).`,
      );
    }
    this.#leaseMs = leaseMs;
    const keys = (job: string): [string, string] => [
      `${this.#leasePrefix}{${job}}`,
      `${prefix}journal-owner:{${job}}`,
    ];
    this.#leases = new JournalLeases(commands, keys, leaseMs, Math.ceil(ttlMs));
  }

  /**
   * Makes this store the only writer of `job` (a bulk job calls it before its first item), and
   * renews that while the store is open.
   *
   * @throws {JournalLockedError} another runner holds the job's lease.
   * @example
   * ```ts
   * await store.claim('cohort-2026-11');
   * ```
   */
  async claim(job: string): Promise<void> {
    this.#open();
    await this.#leases.claim(job);
  }

  /**
   * Gives up the lease `claim` took (a bulk job calls it once it is over).
   *
   * @example
   * ```ts
   * await store.release('cohort-2026-11');
   * ```
   */
  async release(job: string): Promise<void> {
    await this.#leases.release(job);
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
    const reply = await this.#commands.eval(
      PUT,
      [this.#hash(record.job), ...this.#leases.keysOf(record.job)],
      [
        record.key,
        JSON.stringify(record),
        String(Math.ceil(this.#ttlMs)),
        this.#leases.valueOf(record.job),
        String(this.#leaseMs),
        String(this.#leases.ownerMs),
      ],
    );
    const [written, holder, ttl] = reply as [unknown, unknown, unknown];
    if (Number(written) === 2) throw takenOver(record.job, String(holder));
    if (Number(written) !== 1) throw lockedBy(record.job, String(holder), Number(ttl));
  }

  /**
   * Ends this store's use (every put has already been acknowledged) and gives back the leases it
   * holds; the Redis client stays open, it is the application's.
   *
   * @example
   * ```ts
   * await store.close();
   * ```
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#leases.releaseAll();
  }

  #hash(job: string): string {
    return `${this.#prefix}{${job}}`;
  }

  #open(): void {
    if (this.#closed) throw new RedisStoreError('this Redis journal store was closed');
  }
}
