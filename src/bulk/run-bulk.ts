/**
 * `runBulk`: the engine under every bulk operation. Pulls items lazily, runs them within an
 * adaptive concurrency limit, records intent and outcome in the journal, reconciles what an
 * earlier run may have sent, and streams one outcome per item.
 *
 * @module
 */

import { APIError, PartnerError, RequestValidationError } from '../core/errors';
import type { RequestOptions } from '../core/options';
import { classifyError, MAX_RETRY_AFTER_MS } from '../core/retry/classify';
import { sleep } from '../core/time/sleep';
import { Congestion } from './congestion';
import type { JournalRecord } from './journal';
import { OutcomeStream } from './outcome-stream';
import { ProgressTracker } from './progress';
import { SeenKeys } from './seen-keys';
import { JobTelemetry } from './telemetry';
import type {
  BulkItems,
  BulkJob,
  BulkJournal,
  BulkOperation,
  BulkOptions,
  BulkOutcome,
  BulkProgress,
  BulkSummary,
} from './types';

const PROGRESS_EVERY_MS = 500;
/** 429/503 answers one item may meet before it is given up as failed. */
const MAX_THROTTLES_PER_ITEM = 20;

/** One item on its way through the job. */
interface Work<I> {
  item: I;
  key: string;
  attempts: number;
  throttles: number;
  /** A request of this item may have reached the service unanswered: reconcile before sending. */
  inDoubt: boolean;
  /** When the earliest such request was about to be sent (ISO 8601). */
  since: string | undefined;
  /** Validated and checked against the journal. */
  admitted: boolean;
  /** Refused with `Retry-After`: not sent again before this time (`performance.now()`). */
  notBefore: number;
}

type Failure = 'aborted' | 'throttled' | 'transient' | 'final';

/**
 * The item was in doubt (its request may have reached the service) and the operation can neither
 * reconcile nor safely repeat it: it is left for a person to check instead of risking a duplicate.
 *
 * @example
 * ```ts
 * for await (const outcome of job) {
 *   if (outcome.status === 'failed' && outcome.error instanceof InDoubtError) console.log('check', outcome.key);
 * }
 * ```
 */
export class InDoubtError extends PartnerError {}
Object.defineProperty(InDoubtError, Symbol.for('partner-sdk.error.brand'), {
  value: 'partner-sdk.InDoubtError',
});

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

function toAsyncIterator<I>(items: BulkItems<I>): AsyncIterator<I> {
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
 * What the job does after `error`: core's one classification says whether a repeat may succeed;
 * the job's own pace takes 429 and 503, which pause every worker instead of one item.
 */
function classify(error: unknown, aborted: boolean): Failure {
  if (aborted) return 'aborted';
  if (error instanceof APIError && (error.status === 429 || error.status === 503)) {
    return 'throttled';
  }
  return classifyError(error).retryable ? 'transient' : 'final';
}

/** A journal store failed: not an item's failure but the job's. */
class JournalFailure {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

function describeError(error: unknown, inDoubt: boolean): Record<string, unknown> {
  const detail: Record<string, unknown> = { inDoubt };
  if (error instanceof Error) {
    detail.error = error.name;
    detail.message = error.message;
  } else detail.error = String(error);
  if (error instanceof APIError) detail.status = error.status;
  return detail;
}

/**
 * Runs `operation` over every item: the general form of a bulk job, for any method.
 * `requestRefunds`, `waitForRefunds` and `updateOffers` are this with their operation filled in.
 *
 * Items are pulled one at a time as capacity frees up (a generator of a million items never sits
 * in memory); each gets one outcome, streamed as it finishes; a failing item never stops the
 * others. 429 and 503 pause every worker for `Retry-After` and halve the concurrency; successes
 * raise it again. With a `journal`, each item's intent is recorded before its request and its
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
 * @throws {RequestValidationError} an option is invalid (at once, nothing sent).
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

/** What `runBulk` checked and built for a job. */
interface JobSetup {
  congestion: Congestion;
  maxAttempts: number;
  total: number | undefined;
  seen: SeenKeys;
}

/** The item's outcome is already reported (reconciled, or failed in doubt): nothing to send. */
const SETTLED = Symbol('settled');

class Job<I, R> implements BulkJob<I, R> {
  readonly #source: AsyncIterator<I>;
  readonly #operation: BulkOperation<I, R>;
  readonly #options: BulkOptions;
  readonly #congestion: Congestion;
  readonly #maxAttempts: number;
  readonly #tracker: ProgressTracker;
  readonly #seen: SeenKeys;
  /** This run's id in the journal's records: tells its own records from an earlier run's. */
  readonly #runId = crypto.randomUUID();
  readonly #stop = new AbortController();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #retry: Work<I>[] = [];
  #stream: OutcomeStream<BulkOutcome<I, R>> | undefined;
  #summary: Promise<BulkSummary> | undefined;
  #fatal: { error: unknown } | undefined;
  #wake: (() => void) | undefined;
  readonly #telemetry: JobTelemetry<Work<I>>;

  constructor(
    source: AsyncIterator<I>,
    operation: BulkOperation<I, R>,
    options: BulkOptions,
    setup: JobSetup,
  ) {
    this.#source = source;
    this.#operation = operation;
    this.#options = options;
    this.#congestion = setup.congestion;
    this.#maxAttempts = setup.maxAttempts;
    this.#tracker = new ProgressTracker(setup.total);
    this.#seen = setup.seen;
    this.#telemetry = new JobTelemetry(options.telemetry);
  }

  get progress(): BulkProgress {
    return this.#tracker.report(
      this.#inFlight.size,
      this.#congestion.limit,
      this.#congestion.throttled,
    );
  }

  // biome-ignore lint/suspicious/noThenProperty: a job is awaited for its summary, like a promise.
  then<A = BulkSummary, B = never>(
    onFulfilled?: ((summary: BulkSummary) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): PromiseLike<A | B> {
    return this.#start().then(onFulfilled, onRejected);
  }

  [Symbol.asyncIterator](): AsyncIterator<BulkOutcome<I, R>> {
    if (this.#stream || this.#summary) {
      throw new TypeError(
        'A bulk job streams its outcomes once, and only if iterated before it is awaited',
      );
    }
    const highWater = Math.max(64, this.#congestion.limit * 4);
    this.#stream = new OutcomeStream(highWater, () => this.#stop.abort(new Error('reader left')));
    const summary = this.#start();
    summary.catch(() => {}); // the iterator reports the failure
    return this.#stream.iterator();
  }

  #start(): Promise<BulkSummary> {
    this.#summary ??= this.#telemetry.job(() => this.#run());
    return this.#summary;
  }

  /** Wakes the scheduler: an item finished, the reader caught up, or the job was stopped. */
  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #changed(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  async #run(): Promise<BulkSummary> {
    const unlisten = this.#listen();
    const claimed = await this.#claim();
    try {
      const exhausted = claimed ? await this.#schedule() : true;
      await this.#drain(exhausted);
    } finally {
      unlisten();
      if (claimed) await this.#releaseJournal();
    }
    return this.#conclude();
  }

  /** Follows the caller's signal and reports progress; returns what undoes both. */
  #listen(): () => void {
    const signal = this.#options.signal;
    const onAbort = () => this.#stop.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const stopped = this.#stop.signal;
    const wakeOnStop = () => this.#notify();
    stopped.addEventListener('abort', wakeOnStop, { once: true });
    const onProgress = this.#options.onProgress;
    const timer = onProgress
      ? setInterval(() => onProgress(this.#report(true)), PROGRESS_EVERY_MS)
      : undefined;
    (timer as { unref?: () => void } | undefined)?.unref?.();
    return () => {
      clearInterval(timer);
      signal?.removeEventListener('abort', onAbort);
      stopped.removeEventListener('abort', wakeOnStop);
    };
  }

  /** Makes this job its journal's one writer, before any item is read; false when refused. */
  async #claim(): Promise<boolean> {
    const journal = this.#options.journal;
    if (!journal?.store.claim || this.#options.dryRun) return true;
    try {
      await journal.store.claim(journal.job);
      return true;
    } catch (error) {
      this.#fatal = { error };
      return false;
    }
  }

  async #releaseJournal(): Promise<void> {
    const journal = this.#options.journal;
    if (journal?.store.claim && !this.#options.dryRun) {
      await journal.store.release?.(journal.job).catch(() => {});
    }
  }

  /** Starts items as room frees up; resolves once every item started, or the job stopped. */
  async #schedule(): Promise<boolean> {
    const stopped = this.#stop.signal;
    let exhausted = false;
    while (!stopped.aborted && !this.#fatal) {
      const blocked = this.#blocked(exhausted);
      if (blocked === 'done') break;
      if (blocked) {
        await blocked;
        continue;
      }
      const wait = this.#congestion.reserve();
      if (wait > 0) {
        await sleep(wait, stopped).catch(() => {});
        continue;
      }
      let work = this.#readyRetry();
      if (!work) {
        const next = await this.#pull();
        if (!next) break;
        if (next.done) {
          exhausted = true;
          continue;
        }
        work = newWork(next.value);
      }
      this.#launch(work);
    }
    return exhausted;
  }

  /** What keeps the scheduler from starting an item now: something to wait for, or 'done'. */
  #blocked(exhausted: boolean): Promise<void> | 'done' | undefined {
    if (this.#stream?.full) return Promise.race([this.#stream.drained(), this.#changed()]);
    if (this.#inFlight.size >= this.#congestion.limit) return this.#changed();
    if (exhausted && this.#retry.length === 0) {
      return this.#inFlight.size === 0 ? 'done' : this.#changed();
    }
    if (exhausted) {
      // Only refused items are left: wait for the first one's Retry-After (or a change).
      const wait = Math.min(...this.#retry.map((work) => work.notBefore)) - performance.now();
      if (wait > 0) {
        const stopped = this.#stop.signal;
        return Promise.race([sleep(wait, stopped).catch(() => {}), this.#changed()]);
      }
    }
    return undefined;
  }

  /** The first refused item whose Retry-After has passed, taken off the retry list. */
  #readyRetry(): Work<I> | undefined {
    const now = performance.now();
    const index = this.#retry.findIndex((work) => work.notBefore <= now);
    return index < 0 ? undefined : this.#retry.splice(index, 1)[0];
  }

  /** The next item; undefined when the source failed (the job's failure). */
  async #pull(): Promise<IteratorResult<I> | undefined> {
    try {
      return await this.#source.next();
    } catch (error) {
      this.#fatal = { error };
      return undefined;
    }
  }

  #launch(work: Work<I>): void {
    const running = this.#telemetry
      .item(work, () => this.#process(work))
      .then(
        () => undefined,
        (error: unknown) => {
          // The job fails with the store's own error (ENOSPC, EROFS…), never the wrapper.
          this.#fatal ??= { error: error instanceof JournalFailure ? error.error : error };
        },
      );
    this.#inFlight.add(running);
    void running.finally(() => {
      this.#inFlight.delete(running);
      this.#notify();
    });
  }

  /** Stopped or failed: what is in flight finishes (or is abandoned, and reported interrupted). */
  async #drain(exhausted: boolean): Promise<void> {
    if (this.#fatal) this.#stop.abort(this.#fatal.error);
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
    for (const work of this.#retry.splice(0)) {
      if (work.admitted) this.#emit({ status: 'interrupted', ...this.#base(work) });
    }
    if (!exhausted) await this.#source.return?.().catch(() => {});
  }

  #conclude(): BulkSummary {
    this.#options.onProgress?.(this.#report(false));
    if (this.#fatal) {
      this.#stream?.end(this.#fatal);
      throw this.#fatal.error;
    }
    this.#stream?.end();
    return {
      ...this.#tracker.counts,
      total: this.#tracker.done,
      aborted: this.#stop.signal.aborted,
      elapsedMs: performance.now() - this.#tracker.startedAt,
      throttled: this.#congestion.throttled,
      concurrency: this.#congestion.limit,
    };
  }

  #report(sample: boolean): BulkProgress {
    return this.#tracker.report(
      this.#inFlight.size,
      this.#congestion.limit,
      this.#congestion.throttled,
      sample,
    );
  }

  #emit(outcome: BulkOutcome<I, R>): void {
    if (outcome.status !== 'duplicate' && outcome.key !== '') this.#seen.finish(outcome.key);
    this.#tracker.count(outcome);
    this.#telemetry.outcome(
      outcome.key,
      outcome.status,
      outcome.status === 'failed' ? outcome.error : undefined,
    );
    this.#stream?.push(outcome);
  }

  /** Validates an item, sets duplicates aside and reads its journal record; false when it needs no request. */
  async #admit(work: Work<I>): Promise<boolean> {
    try {
      work.key = keyOf(this.#operation.key, work.item);
    } catch (error) {
      this.#emit({ status: 'failed', ...this.#base(work), error, inDoubt: false });
      return false;
    }
    if (this.#seen.has(work.key)) {
      this.#emit({ status: 'duplicate', key: work.key, item: work.item });
      return false;
    }
    this.#seen.start(work.key);
    try {
      this.#operation.validate?.(work.item);
    } catch (error) {
      this.#emit({ status: 'failed', ...this.#base(work), error, inDoubt: false });
      return false;
    }
    if (this.#options.dryRun) {
      this.#emit({ status: 'valid', key: work.key, item: work.item });
      return false;
    }
    return this.#recall(work);
  }

  /** Reads the item's journal record: skipped when an earlier run finished it, in doubt when it may have sent it. */
  async #recall(work: Work<I>): Promise<boolean> {
    const journal = this.#options.journal;
    const previous = journal ? await journal.store.get(journal.job, work.key) : undefined;
    if (previous?.run === this.#runId) {
      // This run recorded the key already: the input repeats it further back than the window.
      this.#seen.finish(work.key);
      this.#emit({ status: 'duplicate', key: work.key, item: work.item });
      return false;
    }
    if (previous) {
      const finished = previous.state !== 'intent';
      const retry = previous.state === 'failed' && this.#options.retryFailed;
      if (finished && !retry) {
        this.#emit({ status: 'skipped', key: work.key, item: work.item, previous });
        return false;
      }
      if (previous.state === 'intent' || previous.detail?.inDoubt === true) {
        work.inDoubt = true;
        work.since = previous.since ?? previous.at;
      }
    }
    work.admitted = true;
    return true;
  }

  async #process(work: Work<I>): Promise<void> {
    if (!work.admitted && !(await this.#admit(work))) return;
    const stopped = this.#stop.signal;
    const options: RequestOptions = {
      ...this.#options.requestOptions,
      signal: stopped,
      maxRetries: 0,
    };
    while (!stopped.aborted) {
      const startedAt = performance.now();
      let result: R | typeof SETTLED;
      try {
        result = await this.#attempt(work, options);
      } catch (error) {
        if (error instanceof JournalFailure) throw error.error;
        const next = await this.#failed(work, error, startedAt);
        if (next === 'again') continue;
        if (next === 'stopped') break;
        return;
      }
      if (result !== SETTLED) await this.#succeeded(work, result, startedAt);
      return;
    }
    // Stopped: the journal keeps the intent, so a resumed job reconciles this item first.
    this.#emit({ status: 'interrupted', ...this.#base(work) });
  }

  /** One try at the item: settles a doubt first (reconcile, or refuse to risk a duplicate), then sends. */
  async #attempt(work: Work<I>, options: RequestOptions): Promise<R | typeof SETTLED> {
    if (work.inDoubt && (await this.#settleDoubt(work, options))) return SETTLED;
    const sentAt = Date.now();
    const journal = this.#options.journal;
    if (journal) {
      const at = new Date(sentAt).toISOString();
      const since = work.since ?? at;
      await this.#record({ job: journal.job, key: work.key, state: 'intent', at, since });
    }
    work.attempts++;
    try {
      return await this.#operation.run(work.item, options);
    } catch (error) {
      if (classifyError(error).mayHaveActed) {
        work.since ??= new Date(sentAt).toISOString();
        work.inDoubt = true;
      }
      throw error;
    }
  }

  /** An item in doubt: true when its outcome is now reported, false when sending it is safe. */
  async #settleDoubt(work: Work<I>, options: RequestOptions): Promise<boolean> {
    const operation = this.#operation;
    if (operation.reconcile) {
      work.attempts++;
      const found = await operation.reconcile(work.item, new Date(work.since!), options);
      if (found === undefined) {
        // Nothing was done: sending is safe. The read that said so is no attempt of its own, so an
        // item gets its maxAttempts sends; only a read that fails counts (which bounds its repeats).
        work.attempts--;
        work.inDoubt = false;
        return false;
      }
      const reconciled = { result: found, reconciled: true };
      await this.#finish(work, { status: 'succeeded', ...this.#base(work), ...reconciled });
      return true;
    }
    if (operation.replaySafe) return false;
    const error = new InDoubtError(
      `${work.key}: a request may have reached the service without its answer; not sent again (no way to check it)`,
    );
    await this.#finish(work, { status: 'failed', ...this.#base(work), error, inDoubt: true });
    return true;
  }

  /** After a failed try: try 'again' now, the job 'stopped', or 'done' (queued or reported). */
  async #failed(
    work: Work<I>,
    error: unknown,
    startedAt: number,
  ): Promise<'again' | 'stopped' | 'done'> {
    const stopped = this.#stop.signal;
    const failure = classify(error, stopped.aborted);
    if (failure === 'aborted') return 'stopped';
    const { retryAfterMs } = classifyError(error);
    // A wait longer than the client's own bound is not waited for here either: the item fails
    // with the full wait, as the call does, rather than holding the whole job.
    const waitable = retryAfterMs === undefined || retryAfterMs <= MAX_RETRY_AFTER_MS;
    if (failure === 'throttled' && waitable && ++work.throttles <= MAX_THROTTLES_PER_ITEM) {
      // The refused item waits what the service asked; the others keep to the (lowered) pace.
      const wait = this.#congestion.throttle(startedAt, retryAfterMs);
      work.notBefore = performance.now() + wait;
      this.#retry.push(work);
      return 'done';
    }
    if (failure === 'transient' && work.attempts < this.#maxAttempts) {
      const backoff = Math.min(8_000, 300 * 2 ** (work.attempts - 1));
      await sleep(backoff * (0.8 + Math.random() * 0.4), stopped).catch(() => {});
      return 'again';
    }
    await this.#finish(work, {
      status: 'failed',
      ...this.#base(work),
      error,
      inDoubt: work.inDoubt,
    });
    return 'done';
  }

  async #succeeded(work: Work<I>, result: R, startedAt: number): Promise<void> {
    this.#congestion.success(startedAt);
    const existed = this.#operation.existed?.(result) ?? false;
    await this.#finish(
      work,
      existed
        ? { status: 'existing', ...this.#base(work), result }
        : { status: 'succeeded', ...this.#base(work), result, reconciled: false },
    );
  }

  #base(work: Work<I>): { key: string; item: I; attempts: number } {
    return { key: work.key, item: work.item, attempts: work.attempts };
  }

  /** Writes a journal record; a failing store stops the job (it can no longer promise anything). */
  async #record(record: JournalRecord): Promise<void> {
    try {
      await this.#options.journal!.store.put({ ...record, run: this.#runId });
    } catch (error) {
      throw new JournalFailure(error);
    }
  }

  /** Records a final outcome in the journal, then reports it. */
  async #finish(work: Work<I>, outcome: BulkOutcome<I, R>): Promise<void> {
    const journal = this.#options.journal;
    if (
      journal &&
      (outcome.status === 'succeeded' ||
        outcome.status === 'existing' ||
        outcome.status === 'failed')
    ) {
      const detail =
        outcome.status === 'failed'
          ? describeError(outcome.error, outcome.inDoubt)
          : (this.#operation.describe?.(outcome.result) ?? {});
      const state = outcome.status;
      await this.#record({
        job: journal.job,
        key: work.key,
        state,
        at: new Date().toISOString(),
        detail,
      });
    }
    this.#emit(outcome);
  }
}

function newWork<I>(item: I): Work<I> {
  return {
    item,
    key: '',
    attempts: 0,
    throttles: 0,
    inDoubt: false,
    since: undefined,
    admitted: false,
    notBefore: 0,
  };
}

/** The item's key, checked: a non-empty string. */
function keyOf<I>(key: (item: I) => string, item: I): string {
  const value = key(item);
  if (typeof value !== 'string' || value === '') {
    throw new RequestValidationError('Invalid bulk item', [
      { path: ['key'], message: 'the item has no key', code: 'invalid_key' },
    ]);
  }
  return value;
}
