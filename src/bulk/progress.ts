/**
 * Counts, rate and time left of a bulk job.
 *
 * @module
 */

import type { BulkCounts, BulkOutcome, BulkProgress } from './types';

const RATE_WINDOW_MS = 5_000;

/** Tallies outcomes and turns them into {@link BulkProgress} reports. */
export class ProgressTracker {
  readonly counts: BulkCounts = {
    succeeded: 0,
    existing: 0,
    failed: 0,
    skipped: 0,
    interrupted: 0,
    valid: 0,
    duplicate: 0,
  };
  readonly startedAt = performance.now();
  readonly #samples: { at: number; done: number }[] = [];

  readonly total: number | undefined;

  constructor(total: number | undefined) {
    this.total = total;
  }

  get done(): number {
    const c = this.counts;
    return c.succeeded + c.existing + c.failed + c.skipped + c.interrupted + c.valid + c.duplicate;
  }

  count(outcome: BulkOutcome<unknown, unknown>): void {
    this.counts[outcome.status]++;
  }

  /** A report now; `sample` keeps a point for the rate (at most a few per second are useful). */
  report(inFlight: number, concurrency: number, throttled: number, sample = false): BulkProgress {
    const now = performance.now();
    const done = this.done;
    if (sample) {
      this.#samples.push({ at: now, done });
      while (this.#samples.length > 2 && now - this.#samples[0]!.at > RATE_WINDOW_MS) {
        this.#samples.shift();
      }
    }
    const first = this.#samples[0] ?? { at: this.startedAt, done: 0 };
    const span = now - first.at;
    const ratePerSecond = span > 0 ? ((done - first.done) * 1000) / span : 0;
    const left = this.total === undefined ? undefined : Math.max(0, this.total - done);
    return {
      ...this.counts,
      done,
      inFlight,
      concurrency,
      ratePerSecond,
      elapsedMs: now - this.startedAt,
      total: this.total,
      etaMs:
        left === undefined
          ? undefined
          : left === 0
            ? 0
            : ratePerSecond > 0
              ? (left / ratePerSecond) * 1000
              : undefined,
      throttled,
    };
  }
}
