/**
 * The journal store contract: what a bulk job needs from durable storage to resume without doing
 * an item twice. Two calls and a close, so a file, Redis or a database table can each hold it.
 *
 * @module
 */

import { PartnerError } from '../core/errors';

/**
 * Where an item stands in a job's journal.
 *
 * - `intent`: written (durably) before the item's request is sent; with no later record, the
 *   request may or may not have reached the service, so a resumed job reconciles it first.
 * - `succeeded`, `existing`: done (`existing`: the service already had it, e.g. an active refund).
 * - `failed`: done with a typed failure, after the job's own retries.
 */
export type JournalState = 'intent' | 'succeeded' | 'existing' | 'failed';

/**
 * One line of a job's journal. Every field is plain JSON, so a store may keep it as a string.
 *
 * @example
 * ```ts
 * const record: JournalRecord = {
 *   job: 'refund-cohort-2026-11',
 *   key: 'trx_8Kq2',
 *   state: 'intent',
 *   at: new Date().toISOString(),
 *   since: new Date().toISOString(),
 * };
 * ```
 */
export interface JournalRecord {
  /** The job's id: a record is only ever read back by the job that wrote it. */
  job: string;
  /** The item's key within the job (a transaction hash, `product/offer`, your `key(item)`). */
  key: string;
  /** Where the item stands. */
  state: JournalState;
  /** When the record was written (ISO 8601, this machine's clock). */
  at: string;
  /**
   * On an `intent`, and on a `failed` record in doubt: the time of the earliest request of this
   * item that may have reached the service without its answer being recorded (ISO 8601, the
   * clock of the machine that wrote the record). Reconciliation looks from there.
   */
  since?: string;
  /** On an outcome: a small JSON summary (the refund's hash, the error's name and message…). */
  detail?: Record<string, unknown>;
  /**
   * The run of the job that wrote the record (a random id per `runBulk` call): a record of this
   * very run met again means the input repeats a key, not that an earlier run did the item.
   */
  run?: string;
}

/**
 * Durable storage for bulk-job journals. The contract (the suite in
 * `test/helpers/journal-store-contract.ts` checks it on every store):
 *
 * - `put` resolves only once the record is durable (it survives the process being killed).
 * - `get(job, key)` resolves with the last record `put` for that job and key (a deep-equal copy),
 *   or `undefined`. Another job's records are never returned: a store either keeps jobs apart or,
 *   holding a single job (a file), rejects a different job id with {@link JournalMismatchError}.
 * - A job puts the records of one key one after another (never two at once for one key); records
 *   of different keys may be put concurrently. Job ids and keys are any non-empty strings.
 * - `close` waits for pending puts; calls after it reject.
 *
 * One writer per journal: a job runs on a journal only after the store let it claim the journal
 * (`claim`, or, for a file, `FileJournal.open`), and a second writer is refused with
 * {@link JournalLockedError} before it sends anything. A store without `claim` leaves that
 * promise to the application.
 *
 * @example
 * ```ts
 * const store: JournalStore = {
 *   get: async (job, key) => records.get(`${job}\u0000${key}`),
 *   put: async (record) => void records.set(`${record.job}\u0000${record.key}`, record),
 *   close: async () => {},
 * };
 * ```
 */
export interface JournalStore {
  /** The last record of `key` in job `job`, or `undefined`. */
  get(job: string, key: string): Promise<JournalRecord | undefined>;
  /** Stores `record` durably: resolves once it would survive a crash. */
  put(record: JournalRecord): Promise<void>;
  /** Flushes pending records and releases the storage. */
  close(): Promise<void>;
  /**
   * Makes the caller the only writer of job `job` until `release` (or `close`); a bulk job calls
   * it before it reads its first item. Rejects with {@link JournalLockedError} while another
   * writer holds the job. Optional: a store without it does not guard against two writers.
   */
  claim?(job: string): Promise<void>;
  /** Gives up what `claim` took, once the job is over. */
  release?(job: string): Promise<void>;
}

/** Who holds a journal, as far as the store can tell (every field is optional). */
export interface JournalHolder {
  /** The holder's process id. */
  pid?: number;
  /** The holder's host name. */
  host?: string;
  /** Since when it holds the journal (ISO 8601). */
  since?: string;
  /** Milliseconds before a lease runs out unless its holder renews it (Redis). */
  expiresInMs?: number;
}

const BRAND = Symbol.for('partner-sdk.error.brand');

/**
 * A journal holds another job's records, or cannot be read: nothing was sent. The message names
 * the file (or store) and both job ids.
 *
 * @example
 * ```ts
 * try {
 *   await requestRefunds(client, hashes, { journal: { store, job: 'cohort-b' } });
 * } catch (err) {
 *   if (err instanceof JournalMismatchError) console.error(err.message);
 * }
 * ```
 */
export class JournalMismatchError extends PartnerError {}
Object.defineProperty(JournalMismatchError, BRAND, { value: 'partner-sdk.JournalMismatchError' });

/**
 * Another writer holds the journal (a second process, a second CLI run, a second store in this
 * process): this job was refused before it sent anything. `holder` names it (pid, host, since);
 * wait for it to end, or, if it is gone for good, see the message for what frees the journal.
 * Also thrown when a writer finds it lost its hold mid-job (its lock file removed, its lease taken).
 *
 * @example
 * ```ts
 * try {
 *   await requestRefunds(seller, hashes, { journal: { store, job: 'cohort-2026-11' } });
 * } catch (err) {
 *   if (err instanceof JournalLockedError) console.error(`busy: pid ${err.holder.pid} on ${err.holder.host}`);
 * }
 * ```
 */
export class JournalLockedError extends PartnerError {
  /** Who holds the journal. */
  readonly holder: JournalHolder;
  constructor(message: string, holder: JournalHolder = {}) {
    super(message);
    this.holder = holder;
  }
}
Object.defineProperty(JournalLockedError, BRAND, { value: 'partner-sdk.JournalLockedError' });

/** Checks the shape of a record read back from storage; `undefined` when it is not one. */
export function asJournalRecord(value: unknown): JournalRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  const states: readonly unknown[] = ['intent', 'succeeded', 'existing', 'failed'];
  if (typeof r.job !== 'string' || typeof r.key !== 'string' || typeof r.at !== 'string') {
    return undefined;
  }
  if (!states.includes(r.state)) return undefined;
  if (r.since !== undefined && typeof r.since !== 'string') return undefined;
  if (r.run !== undefined && typeof r.run !== 'string') return undefined;
  if (r.detail !== undefined && (typeof r.detail !== 'object' || r.detail === null)) {
    return undefined;
  }
  return r as unknown as JournalRecord;
}
