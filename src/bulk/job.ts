/**
 * A bulk job as it runs: pulls items as room frees up, within the concurrency limit and the
 * pace (`congestion.ts`), hands each to its run (`item-run.ts`), streams the outcomes to a reader
 * (or only counts them), reports progress, and ends with its summary once every item is done,
 * or it was stopped or failed.
 *
 * @module
 */

import { sleep } from '../core/time/sleep';
import type { Congestion } from './congestion';
import { ItemRunner } from './item-run';
import { claimJournal, releaseJournal } from './journal-claim';
import { OutcomeStream } from './outcome-stream';
import { ProgressTracker } from './progress';
import type { SeenKeys } from './seen-keys';
import { SourceReader } from './source-reader';
import { JobTelemetry } from './telemetry';
import type {
  BulkJob,
  BulkOperation,
  BulkOptions,
  BulkOutcome,
  BulkProgress,
  BulkSummary,
} from './types';
import { JournalFailure, newWork, type Work } from './work';

const PROGRESS_EVERY_MS = 500;

/** What `runBulk` checked and built for a job. */
export interface JobSetup {
  congestion: Congestion;
  maxAttempts: number;
  total: number | undefined;
  seen: SeenKeys;
}

export class Job<I, R> implements BulkJob<I, R> {
  readonly #source: SourceReader<I>;
  readonly #options: BulkOptions;
  readonly #congestion: Congestion;
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
  readonly #items: ItemRunner<I, R>;

  constructor(
    source: AsyncIterator<I>,
    operation: BulkOperation<I, R>,
    options: BulkOptions,
    setup: JobSetup,
  ) {
    this.#source = new SourceReader(source);
    this.#options = options;
    this.#congestion = setup.congestion;
    this.#tracker = new ProgressTracker(setup.total);
    this.#seen = setup.seen;
    this.#telemetry = new JobTelemetry(options.telemetry);
    this.#items = new ItemRunner({
      operation,
      options,
      congestion: setup.congestion,
      maxAttempts: setup.maxAttempts,
      seen: setup.seen,
      runId: this.#runId,
      stop: this.#stop.signal,
      retry: this.#retry,
      emit: (outcome) => this.#emit(outcome),
    });
  }

  get progress(): BulkProgress {
    return this.#report(false);
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
    const refused = await claimJournal(this.#options);
    if (refused) this.#fatal = refused;
    const claimed = !refused;
    try {
      const exhausted = claimed ? await this.#schedule() : true;
      await this.#drain(exhausted);
    } finally {
      unlisten();
      if (claimed) await releaseJournal(this.#options);
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
    const timer = this.#options.onProgress
      ? setInterval(() => this.#progress(true), PROGRESS_EVERY_MS)
      : undefined;
    (timer as { unref?: () => void } | undefined)?.unref?.();
    return () => {
      clearInterval(timer);
      signal?.removeEventListener('abort', onAbort);
      stopped.removeEventListener('abort', wakeOnStop);
    };
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

  /** The next item; undefined when the job stopped first, or the source failed (the job's failure). */
  async #pull(): Promise<IteratorResult<I> | undefined> {
    try {
      return await this.#source.next(this.#stop.signal);
    } catch (error) {
      this.#fatal = { error };
      return undefined;
    }
  }

  #launch(work: Work<I>): void {
    const running = this.#telemetry
      .item(work, () => this.#items.process(work))
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
      if (work.admitted) this.#emit({ status: 'interrupted', ...this.#items.base(work) });
    }
    if (!exhausted) await this.#source.close();
  }

  /** Reports progress. An `onProgress` error ends the job (a failing journal's way), never uncaught. */
  #progress(sample: boolean): void {
    try {
      this.#options.onProgress?.(this.#report(sample));
    } catch (error) {
      this.#fatal ??= { error };
      this.#notify();
    }
  }

  #conclude(): BulkSummary {
    this.#progress(false);
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
}
