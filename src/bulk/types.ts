/**
 * The public shapes of a bulk job: options, per-item outcomes, progress and the summary.
 *
 * @module
 */

import type { RequestOptions } from '../core/options';
import type { PollOptions } from '../core/poll';
import type { RefundStatus } from '../schemas/refund';
import type { TelemetryOptions } from '../telemetry/types';
import type { FileJournal } from './file-journal';
import type { JournalRecord, JournalStore } from './journal';

export type { BulkOperation } from './operation';

/** Items of a bulk job: an array, or any iterable or async iterable (pulled lazily, one at a time). */
export type BulkItems<I> = Iterable<I> | AsyncIterable<I>;

/** What every outcome carries: the item and its key. */
export interface BulkOutcomeBase<I> {
  /** The item's key (its journal identity). */
  key: string;
  /** The item as the input gave it. */
  item: I;
}

/** Done by this run. */
export interface BulkSucceeded<I, R = unknown> extends BulkOutcomeBase<I> {
  /** What happened. */
  status: 'succeeded';
  /** What the call returned (or, when `reconciled`, what the earlier request had made). */
  result: R;
  /** A request of an interrupted earlier run (or a lost answer) had done it: found by reading the service, not sent again. */
  reconciled: boolean;
  /** Requests (and reconciliation reads) made for the item. */
  attempts: number;
}

/** The service already had it (e.g. an active refund answered with 200): nothing new was made. */
export interface BulkExisting<I, R = unknown> extends BulkOutcomeBase<I> {
  /** What happened. */
  status: 'existing';
  /** What the call returned. */
  result: R;
  /** Requests made for the item. */
  attempts: number;
}

/** A typed failure, after the job's own retries. One item's failure never stops the others. */
export interface BulkFailed<I> extends BulkOutcomeBase<I> {
  /** What happened. */
  status: 'failed';
  /** The error: a `PartnerError` subclass for the SDK's own failures. */
  error: unknown;
  /**
   * The request may have reached the service (a time-out, a lost connection, a 5xx): a resumed
   * job with `retryFailed` reconciles such an item before sending it again.
   */
  inDoubt: boolean;
  /** Requests made for the item (0: refused before sending). */
  attempts: number;
}

/** The journal says an earlier run finished it. */
export interface BulkSkipped<I> extends BulkOutcomeBase<I> {
  /** What happened. */
  status: 'skipped';
  /** That run's record of it. */
  previous: JournalRecord;
}

/** The job was aborted while the item was in flight: its journal keeps the intent, so a resumed job reconciles it first. */
export interface BulkInterrupted<I> extends BulkOutcomeBase<I> {
  /** What happened. */
  status: 'interrupted';
  /** Requests made for the item. */
  attempts: number;
}

/**
 * The item's key was met earlier in this job's input: the same item, done (or being done) once
 * under its first occurrence, whose outcome is reported there. Never sent. Recognised when the
 * first occurrence is unfinished or among the last `dedupeWindow` items finished, and, with a
 * journal, anywhere in the job.
 */
export interface BulkDuplicate<I> extends BulkOutcomeBase<I> {
  /** What happened. */
  status: 'duplicate';
}

/** A dry run found nothing wrong with the item (nothing was sent). */
export interface BulkValid<I> extends BulkOutcomeBase<I> {
  /** What happened. */
  status: 'valid';
}

/** What one item of a bulk job came to; narrow on `status`. Per operation: `RefundOutcome`… */
export type BulkOutcome<I, R = unknown> =
  | BulkSucceeded<I, R>
  | BulkExisting<I, R>
  | BulkFailed<I>
  | BulkSkipped<I>
  | BulkInterrupted<I>
  | BulkDuplicate<I>
  | BulkValid<I>;

/** Counts of outcomes so far, by status. */
export interface BulkCounts {
  /** Items done by this run. */
  succeeded: number;
  /** Items the service already had. */
  existing: number;
  /** Items that failed. */
  failed: number;
  /** Items an earlier run finished (from the journal). */
  skipped: number;
  /** Items in flight when the job was aborted. */
  interrupted: number;
  /** Items a dry run validated. */
  valid: number;
  /** Items whose key repeated an earlier item's in the input (never sent). */
  duplicate: number;
}

/**
 * A progress report, given to `onProgress` about twice a second and once at the end.
 */
export interface BulkProgress extends BulkCounts {
  /** Items with an outcome (every status). */
  done: number;
  /** Requests in flight now. */
  inFlight: number;
  /** The job's current concurrency limit (it adapts to 429 and 503). */
  concurrency: number;
  /** Items finished per second over the last few seconds. */
  ratePerSecond: number;
  /** Milliseconds since the job started. */
  elapsedMs: number;
  /** Items in the job, when known (an array's length, or the `total` option). */
  total: number | undefined;
  /** Estimated milliseconds left, when `total` is known and the rate is not zero. */
  etaMs: number | undefined;
  /** Answers 429 or 503 seen so far (each one's item waited its `Retry-After`). */
  throttled: number;
}

/** What a bulk job resolves with once every item has an outcome (or it was aborted). */
export interface BulkSummary extends BulkCounts {
  /** Items with an outcome. */
  total: number;
  /** Whether the job was stopped by its `signal` before every item was done. */
  aborted: boolean;
  /** Milliseconds the job took. */
  elapsedMs: number;
  /** Answers 429 or 503 seen (each item concerned was sent again after its `Retry-After`). */
  throttled: number;
  /** The concurrency limit at the end. */
  concurrency: number;
}

/** The journal a job records into: a store and this job's id in it. */
export interface BulkJournal {
  /** Where the records go ({@link FileJournal}, the Redis store, your own {@link JournalStore}). */
  store: JournalStore;
  /** The job's id: run again with the same id to resume. */
  job: string;
}

/** Options of every bulk job. */
export interface BulkOptions {
  /** Requests in flight at the start. Default 4. */
  concurrency?: number | undefined;
  /** Lowest concurrency the job backs off to. Default 1. */
  minConcurrency?: number | undefined;
  /** Highest concurrency the job grows to. Default 16 (or `concurrency` if higher). */
  maxConcurrency?: number | undefined;
  /** Sends per item on failures worth repeating (connection lost, time-out, 408, 500, 502, 504). Default 3. 429 and 503 wait their `Retry-After` instead and do not count; a reconciling read that finds nothing made does not count, one that fails does. */
  maxAttempts?: number | undefined;
  /** Stops the job: nothing new starts, requests in flight are abandoned and reported `interrupted`. */
  signal?: AbortSignal | undefined;
  /**
   * Records intent and outcome of each item, so a second run resumes without duplicates:
   * `{ store, job }` with a non-empty job id (anything else is a `RequestValidationError`).
   */
  journal?: BulkJournal | undefined;
  /** On resume, try again the items an earlier run recorded as `failed` (default: skip them). */
  retryFailed?: boolean | undefined;
  /** Validates every item and sends nothing: each outcome is `valid` or `failed`. */
  dryRun?: boolean | undefined;
  /**
   * Finished items whose keys are remembered to recognise a repeated key (besides every
   * unfinished item's, always remembered). Default 100 000, a few megabytes at most; 0 keeps
   * only unfinished items'. With a journal, repeats further apart are recognised too.
   */
  dedupeWindow?: number | undefined;
  /** How many items there are, for the estimate of time left (an array's length is known). */
  total?: number | undefined;
  /**
   * Called with progress about twice a second and once at the end. An error it throws ends the job
   * with that error, as a failing journal does: nothing starts after it, and the job and its
   * outcomes' reader reject with it.
   *
   * @example
   * ```ts
   * onProgress: (p) => console.error(`${p.done}/${p.total ?? '?'} ${p.ratePerSecond.toFixed(0)}/s`),
   * ```
   */
  onProgress?: ((progress: BulkProgress) => void) | undefined;
  /** Per-request `timeout`, `totalTimeout` and `headers`, no other (retries are the job's: see the guide). */
  requestOptions?: Pick<RequestOptions, 'timeout' | 'totalTimeout' | 'headers'> | undefined;
  /**
   * OpenTelemetry: a `bulk.job` span, a `bulk.item` span per item under it (the item's calls under
   * that) with its outcome, and `partner_sdk.bulk.items` counted by outcome. Default: where the
   * job's client records (its own `telemetry` option: `false` there is off here too) for
   * `requestRefunds`, `waitForRefunds` and `updateOffers`; for `runBulk`, the providers registered
   * with `@opentelemetry/api` (nothing without one). `false` turns it off.
   */
  telemetry?: false | TelemetryOptions | undefined;
}

/**
 * A running bulk job: `for await` its outcomes as they finish, or `await` it for the summary (or
 * both: the summary resolves after the last outcome). The job starts on the first of the two.
 */
export interface BulkJob<I, R = unknown>
  extends AsyncIterable<BulkOutcome<I, R>>,
    PromiseLike<BulkSummary> {
  /** Progress now (counts, in flight, rate, time left). */
  readonly progress: BulkProgress;
}

/** Options of `waitForRefunds`. */
export interface WaitForRefundsOptions extends BulkOptions {
  /** How each wait polls (`interval`, `maxInterval`, `timeout`); the job's `signal` stops them all. */
  pollOptions?: Omit<PollOptions<RefundStatus>, 'signal'> | undefined;
}
