/**
 * One item's way through a bulk job: validated, set aside when its key repeats, checked against
 * the journal, reconciled when an earlier try may have sent it, sent, then retried, queued for
 * its `Retry-After` or reported. `job.ts` schedules the items; this runs each one.
 *
 * @module
 */

import type { RequestOptions } from '../core/options';
import { classifyError, MAX_RETRY_AFTER_MS } from '../core/retry/classify';
import { sleep } from '../core/time/sleep';
import type { Congestion } from './congestion';
import type { JournalRecord } from './journal';
import type { SeenKeys } from './seen-keys';
import type { BulkOperation, BulkOptions, BulkOutcome } from './types';
import {
  classify,
  describeError,
  InDoubtError,
  JournalFailure,
  keyOf,
  SETTLED,
  type Work,
} from './work';

/** 429/503 answers one item may meet before it is given up as failed. */
const MAX_THROTTLES_PER_ITEM = 20;

/** What an item's run needs of its job. */
export interface ItemJob<I, R> {
  operation: BulkOperation<I, R>;
  options: BulkOptions;
  congestion: Congestion;
  maxAttempts: number;
  seen: SeenKeys;
  /** This run's id in the journal's records: tells its own records from an earlier run's. */
  runId: string;
  /** Aborted when the job stops. */
  stop: AbortSignal;
  /** Items refused with `Retry-After`, waiting to be sent again. */
  retry: Work<I>[];
  /** Reports an outcome. */
  emit(outcome: BulkOutcome<I, R>): void;
}

/** Runs the items of one job. */
export class ItemRunner<I, R> {
  readonly #operation: BulkOperation<I, R>;
  readonly #options: BulkOptions;
  readonly #congestion: Congestion;
  readonly #maxAttempts: number;
  readonly #seen: SeenKeys;
  readonly #runId: string;
  readonly #stop: AbortSignal;
  readonly #retry: Work<I>[];
  readonly #emit: (outcome: BulkOutcome<I, R>) => void;

  constructor(job: ItemJob<I, R>) {
    this.#operation = job.operation;
    this.#options = job.options;
    this.#congestion = job.congestion;
    this.#maxAttempts = job.maxAttempts;
    this.#seen = job.seen;
    this.#runId = job.runId;
    this.#stop = job.stop;
    this.#retry = job.retry;
    this.#emit = job.emit;
  }

  /** Validates an item, then sets duplicates aside and reads its journal record; false when it needs no request. */
  async #admit(work: Work<I>): Promise<boolean> {
    try {
      work.key = keyOf(this.#operation.key, work.item);
    } catch (error) {
      this.#emit({ status: 'failed', ...this.base(work), error, inDoubt: false });
      return false;
    }
    // Validated before its key is looked up: a bad item is reported failed even where its key
    // repeats an earlier one (a dry run checks every item), and a bad first occurrence never
    // makes a later good one a duplicate.
    try {
      this.#operation.validate?.(work.item);
    } catch (error) {
      this.#emit({ status: 'failed', ...this.base(work), error, inDoubt: false });
      return false;
    }
    if (this.#seen.has(work.key)) {
      this.#emit({ status: 'duplicate', key: work.key, item: work.item });
      return false;
    }
    this.#seen.start(work.key);
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

  /** Runs one item to its outcome (or leaves it queued for its `Retry-After`). */
  async process(work: Work<I>): Promise<void> {
    if (!work.admitted && !(await this.#admit(work))) return;
    const stopped = this.#stop;
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
    this.#emit({ status: 'interrupted', ...this.base(work) });
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
      await this.#finish(work, { status: 'succeeded', ...this.base(work), ...reconciled });
      return true;
    }
    if (operation.replaySafe) return false;
    const error = new InDoubtError(
      `${work.key}: a request may have reached the service without its answer; not sent again (no way to check it)`,
    );
    await this.#finish(work, { status: 'failed', ...this.base(work), error, inDoubt: true });
    return true;
  }

  /** After a failed try: try 'again' now, the job 'stopped', or 'done' (queued or reported). */
  async #failed(
    work: Work<I>,
    error: unknown,
    startedAt: number,
  ): Promise<'again' | 'stopped' | 'done'> {
    const stopped = this.#stop;
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
      ...this.base(work),
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
        ? { status: 'existing', ...this.base(work), result }
        : { status: 'succeeded', ...this.base(work), result, reconciled: false },
    );
  }

  /** What every outcome of `work` says of it. */
  base(work: Work<I>): { key: string; item: I; attempts: number } {
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
