/**
 * `runBulk`: the engine under every bulk operation. Pulls items lazily, runs them within an
 * adaptive concurrency limit, records intent and outcome in the journal, reconciles what an
 * earlier run may have sent, and streams one outcome per item. This file checks the options and
 * starts the job (`job.ts`), whose items run in `item-run.ts`.
 *
 * @module
 */

import { RequestValidationError } from '../core/errors';
import { requestOptionsIssue } from '../core/options/request-options-shape';
import { Congestion } from './congestion';
import { Job } from './job';
import { checkBulkOptionsShape } from './options-shape';
import { SeenKeys } from './seen-keys';
import type { BulkItems, BulkJob, BulkJournal, BulkOperation, BulkOptions } from './types';

export { InDoubtError } from './work';

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new RequestValidationError('Invalid bulk options', [
      { path: [name], message: 'expected a whole number ≥ 1', code: 'invalid_value' },
    ]);
  }
  return value;
}

/**
 * A journal is `{ store, job }`: a store given on its own, or a job id left empty (an unset
 * environment variable), is refused here, before any item is read, naming what is missing.
 */
function checkJournal(journal: BulkJournal | undefined): void {
  if (journal == null) return;
  const store = (journal as Partial<BulkJournal>).store;
  const issue =
    typeof store?.get !== 'function' || typeof store.put !== 'function'
      ? { path: ['journal', 'store'], message: 'expected a JournalStore: pass { store, job }' }
      : typeof journal.job !== 'string' || journal.job === ''
        ? { path: ['journal', 'job'], message: 'expected a non-empty job id' }
        : undefined;
  if (issue) {
    throw new RequestValidationError('Invalid bulk options', [{ ...issue, code: 'invalid_value' }]);
  }
}

/** The job's `requestOptions`, given to each item's call: checked once here, not item by item. */
function checkRequestOptions(requestOptions: unknown): void {
  const message = requestOptionsIssue(requestOptions);
  if (message === undefined) return;
  throw new RequestValidationError('Invalid bulk options', [
    { path: ['requestOptions'], message, code: 'invalid_value' },
  ]);
}

function toAsyncIterator<I>(items: BulkItems<I>): AsyncIterator<I> {
  // A string is iterable, by character: one transaction hash would become a job per letter.
  if (typeof items === 'string') {
    throw new RequestValidationError('Invalid bulk items', [
      {
        path: ['items'],
        message: 'expected an array or an (async) iterable, not a string',
        code: 'invalid_type',
      },
    ]);
  }
  if (items && typeof (items as AsyncIterable<I>)[Symbol.asyncIterator] === 'function') {
    return (items as AsyncIterable<I>)[Symbol.asyncIterator]();
  }
  if (items && typeof (items as Iterable<I>)[Symbol.iterator] === 'function') {
    const iterator = (items as Iterable<I>)[Symbol.iterator]();
    return {
      next: async () => iterator.next(),
      return: async () => iterator.return?.() ?? { value: undefined, done: true },
    };
  }
  throw new RequestValidationError('Invalid bulk items', [
    { path: ['items'], message: 'expected an array or an (async) iterable', code: 'invalid_type' },
  ]);
}

/**
 * Runs `operation` over every item: the general form of a bulk job, for any method.
 * `requestRefunds`, `waitForRefunds` and `updateOffers` are this with their operation filled in.
 *
 * Items are pulled one at a time as capacity frees up (a generator of a million items never sits
 * in memory); each gets one outcome, streamed as it finishes; a failing item never stops the
 * others. A 429 or 503 sends its item again after `Retry-After`, halves the concurrency and lowers
 * the pace (every worker waits only when the service admits nothing now); successes raise it again. With a `journal`, each item's intent is recorded before its request and its
 * outcome after: run again with the same journal and job id, finished items are skipped and items
 * whose request may have reached the service are reconciled (or, when `replaySafe`, sent again).
 * A job claims its journal before it reads an item: with another writer on it, the job rejects
 * with `JournalLockedError` and sends nothing. An item whose key repeats an earlier item's is
 * reported `duplicate` and never sent (see {@link BulkOptions.dedupeWindow}).
 *
 * @param items An array, or any iterable or async iterable.
 * @param operation What to do with an item: `key`, `run`, and optionally `reconcile`,
 *   `replaySafe`, `existed`, `validate`, `describe`.
 * @param options Concurrency, journal, signal, progress, dry run (see {@link BulkOptions}).
 * @throws {RequestValidationError} an option is invalid or unknown (at once, nothing sent).
 * @throws {JournalLockedError} (the job rejects) another writer holds the journal: nothing sent.
 * @example
 * ```ts
 * import { runBulk } from 'partner-sdk/bulk';
 *
 * const job = runBulk(
 *   productHashes,
 *   { key: (hash) => hash, run: (hash, options) => client.products.retrieve(hash, options), replaySafe: true },
 *   { concurrency: 8 },
 * );
 * for await (const outcome of job) {
 *   if (outcome.status === 'succeeded') console.log(outcome.result.name);
 * }
 * console.log(await job); // { succeeded: 120, failed: 0, … }
 * ```
 */
export function runBulk<I, R>(
  items: BulkItems<I>,
  operation: BulkOperation<I, R>,
  options: BulkOptions = {},
): BulkJob<I, R> {
  checkBulkOptionsShape(options);
  const concurrency = positiveInteger('concurrency', options.concurrency, 4);
  const min = positiveInteger('minConcurrency', options.minConcurrency, 1);
  const max = positiveInteger('maxConcurrency', options.maxConcurrency, Math.max(16, concurrency));
  const maxAttempts = positiveInteger('maxAttempts', options.maxAttempts, 3);
  const window = options.dedupeWindow ?? 100_000;
  if (!Number.isSafeInteger(window) || window < 0) {
    throw new RequestValidationError('Invalid bulk options', [
      { path: ['dedupeWindow'], message: 'expected a whole number ≥ 0', code: 'invalid_value' },
    ]);
  }
  checkJournal(options.journal);
  checkRequestOptions(options.requestOptions);
  if (min > max) {
    throw new RequestValidationError('Invalid bulk options', [
      {
        path: ['minConcurrency'],
        message: 'must not exceed maxConcurrency',
        code: 'invalid_value',
      },
    ]);
  }
  const source = toAsyncIterator(items);
  const total = Array.isArray(items) ? items.length : options.total;
  return new Job(source, operation, options, {
    congestion: new Congestion(concurrency, min, max),
    maxAttempts,
    total,
    seen: new SeenKeys(window),
  });
}
