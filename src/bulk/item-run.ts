/**
 * One item's way through a bulk job: admitted (`item-admission.ts`), reconciled when an earlier
 * try may have sent it, checked (the operation's read before sending), sent, then retried, queued
 * for its `Retry-After` or reported. `job.ts` schedules the items; this runs each one. Every
 * request an item makes is one of the pace's: the first of a run on the slot the scheduler took
 * for it, each later one (a read before the send, a send after a failed try) on a slot of its own.
 *
 * @module
 */

import type { RequestOptions } from '../core/options';
import { classifyError, MAX_RETRY_AFTER_MS } from '../core/retry/classify';
import { sleep } from '../core/time/sleep';
import type { Congestion } from './congestion';
import { admitItem } from './item-admission';
import type { JournalRecord } from './journal';
import { loginHoldWait } from './login-hold';
import type { SeenKeys } from './seen-keys';
import type { BulkOperation, BulkOptions, BulkOutcome } from './types';
import {
  admittedAnswer,
  classify,
  describeError,
  InDoubtError,
  JournalFailure,
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
  readonly #runId: string;
  readonly #stop: AbortSignal;
  readonly #retry: Work<I>[];
  readonly #emit: (outcome: BulkOutcome<I, R>) => void;
  readonly #job: ItemJob<I, R>;

  constructor(job: ItemJob<I, R>) {
    this.#job = job;
    this.#operation = job.operation;
    this.#options = job.options;
    this.#congestion = job.congestion;
    this.#maxAttempts = job.maxAttempts;
    this.#runId = job.runId;
    this.#stop = job.stop;
    this.#retry = job.retry;
    this.#emit = job.emit;
  }

  /** Runs one item to its outcome (or leaves it queued for its `Retry-After`). */
  async process(work: Work<I>): Promise<void> {
    if (!work.admitted && !(await admitItem(this.#job, work))) return;
    const stopped = this.#stop;
    const options: RequestOptions = {
      ...this.#options.requestOptions,
      signal: stopped,
      maxRetries: 0,
    };
    // The scheduler took the pace's slot for this run's first request.
    work.slotted = true;
    while (!stopped.aborted) {
      let result: R | typeof SETTLED;
      try {
        result = await this.#attempt(work, options);
      } catch (error) {
        if (error instanceof JournalFailure) throw error.error;
        const next = await this.#failed(work, error);
        if (next === 'again') continue;
        if (next === 'stopped') break;
        return;
      }
      if (result !== SETTLED) await this.#succeeded(work, result);
      return;
    }
    // Stopped: the journal keeps the intent, so a resumed job reconciles this item first.
    this.#emit({ status: 'interrupted', ...this.base(work) });
  }

  /**
   * Waits for the slot of the pace of the item's next request: the scheduler's for the run's
   * first, the next one free for each later one. The request's start is the pace's measure of it.
   */
  async #slot(work: Work<I>): Promise<void> {
    const stopped = this.#stop;
    for (let wait = work.slotted ? 0 : this.#congestion.reserve(); wait > 0; ) {
      await sleep(wait, stopped).catch(() => {});
      stopped.throwIfAborted();
      wait = this.#congestion.reserve();
    }
    work.slotted = false;
    work.startedAt = performance.now();
  }

  /** One try at the item: settles a doubt first (reconcile, or refuse to risk a duplicate), checks, then sends. */
  async #attempt(work: Work<I>, options: RequestOptions): Promise<R | typeof SETTLED> {
    if (work.inDoubt && (await this.#settleDoubt(work, options))) return SETTLED;
    if (!work.checked && (await this.#check(work, options))) return SETTLED;
    const sentAt = Date.now();
    const journal = this.#options.journal;
    if (journal) {
      const at = new Date(sentAt).toISOString();
      const since = work.since ?? at;
      await this.#record({ job: journal.job, key: work.key, state: 'intent', at, since });
    }
    await this.#slot(work);
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

  /**
   * The operation's read before the item is sent, once per item: true when it refused the item
   * (reported failed, nothing sent). A read acts on nothing: its failure never puts the item in
   * doubt. Like a reconciling read, one that answers is no attempt; one that fails is.
   */
  async #check(work: Work<I>, options: RequestOptions): Promise<boolean> {
    const check = this.#operation.check;
    if (!check) return false;
    await this.#slot(work);
    work.attempts++;
    const refusal = await check(work.item, options);
    work.attempts--;
    this.#congestion.success(work.startedAt);
    work.checked = true;
    if (refusal === undefined) return false;
    const failed = {
      status: 'failed' as const,
      ...this.base(work),
      error: refusal,
      inDoubt: false,
    };
    await this.#finish(work, failed);
    return true;
  }

  /** An item in doubt: true when its outcome is now reported, false when sending it is safe. */
  async #settleDoubt(work: Work<I>, options: RequestOptions): Promise<boolean> {
    const operation = this.#operation;
    if (operation.reconcile) {
      await this.#slot(work);
      work.attempts++;
      const at = new Date(work.since!);
      const since = work.sinceElsewhere ? { otherMachine: at } : at;
      const found = await operation.reconcile(work.item, since, options);
      this.#congestion.success(work.startedAt);
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
  async #failed(work: Work<I>, error: unknown): Promise<'again' | 'stopped' | 'done'> {
    const stopped = this.#stop;
    const failure = classify(error, stopped.aborted);
    if (failure === 'aborted') return 'stopped';
    const held = loginHoldWait(error);
    if (held !== undefined && ++work.throttles <= MAX_THROTTLES_PER_ITEM) {
      return this.#waitForLogin(work, held);
    }
    if (admittedAnswer(error)) this.#congestion.success(work.startedAt);
    const { retryAfterMs } = classifyError(error);
    // A wait longer than the client's own bound is not waited for here either: the item fails
    // with the full wait, as the call does, rather than holding the whole job.
    const waitable = retryAfterMs === undefined || retryAfterMs <= MAX_RETRY_AFTER_MS;
    if (failure === 'throttled' && waitable && ++work.throttles <= MAX_THROTTLES_PER_ITEM) {
      // The refused item waits what the service asked; the others keep to the (lowered) pace.
      const wait = this.#congestion.throttle(work.startedAt, retryAfterMs);
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

  /**
   * The client holds its logins back: this try sent nothing (no attempt), and no request of the
   * job can go before the hold ends, so the whole job waits for it, the pace left as it was (the
   * login's refusal says nothing of the service's rate for the job's requests).
   */
  #waitForLogin(work: Work<I>, waitMs: number): 'done' {
    work.attempts--;
    work.notBefore = performance.now() + waitMs;
    this.#congestion.pausedUntil = Math.max(this.#congestion.pausedUntil, work.notBefore);
    this.#retry.push(work);
    return 'done';
  }

  async #succeeded(work: Work<I>, result: R): Promise<void> {
    this.#congestion.success(work.startedAt);
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
      // A failure in doubt keeps when its request was sent: `retryFailed` reconciles from there,
      // not from the failure, recorded as much as a time-out later.
      const since = outcome.status === 'failed' && outcome.inDoubt ? work.since : undefined;
      await this.#record({
        job: journal.job,
        key: work.key,
        state,
        at: new Date().toISOString(),
        ...(since === undefined ? {} : { since }),
        detail,
      });
    }
    this.#emit(outcome);
  }
}
