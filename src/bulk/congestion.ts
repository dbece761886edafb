/**
 * Adaptive pace for a bulk job: a concurrency limit (additive increase, multiplicative decrease),
 * a request rate learned from the service's 429s, and a pause of every worker for `Retry-After`.
 *
 * - A 429 or 503 halves the concurrency limit (once per congestion event: answers to requests sent
 *   before the last decrease do not lower it again), pauses the job for `Retry-After` (or for a
 *   back-off that doubles with each event in a row, 1 s to 30 s, when the service gives none), and
 *   caps the request rate at 90 % of what the service admitted over the last second of sending.
 *   A concurrency limit alone cannot hold a rate when the service answers in a few milliseconds
 *   (even one request at a time may be too fast), hence the rate.
 * - Successes raise the concurrency limit by one per 100 ms and the rate cap by 2 % per second, so
 *   the job probes back up towards the service's limit without a storm of 429s.
 *
 * @module
 */

const DECREASE = 0.5;
const INCREASE_EVERY_MS = 100;
const RATE_MARGIN = 0.9;
/** Rate growth per `INCREASE_EVERY_MS` of success: 2 % a second. */
const RATE_PROBE = 1.002;
const RATE_WINDOW_MS = 1_000;
/** Successes needed in that window before a rate is estimated from them. */
const RATE_SAMPLE = 10;
const CATCH_UP_MS = 20;
const FIRST_PAUSE_MS = 1_000;
const MAX_PAUSE_MS = 30_000;

/** The concurrency limit, the rate cap and the job-wide pause. */
export class Congestion {
  readonly #min: number;
  readonly #max: number;
  #limit: number;
  #lastDecrease = Number.NEGATIVE_INFINITY;
  #lastIncrease = 0;
  #eventsInRow = 0;
  /** Requests per second the job may send; `undefined` until the service has pushed back. */
  #rate: number | undefined;
  #nextSendAt = 0;
  /**
   * Times of successes on the active clock (time not paused), oldest first; those before
   * `#oldest` have left the window. An index, not `shift()`: at tens of thousands of successes a
   * second the window is a large array, and shifting one copies it all.
   */
  #successes: number[] = [];
  #oldest = 0;
  #pausedTotal = 0;
  #pauseFrom = 0;
  /** Time (ms, `performance.now()`) before which nothing is sent. */
  pausedUntil = 0;
  /** 429 and 503 answers seen. */
  throttled = 0;

  constructor(initial: number, min: number, max: number) {
    this.#min = min;
    this.#max = max;
    this.#limit = Math.min(max, Math.max(min, initial));
  }

  /** Requests that may be in flight now. */
  get limit(): number {
    return Math.floor(this.#limit);
  }

  /** The current rate cap in requests per second, if any. */
  get rate(): number | undefined {
    return this.#rate;
  }

  /** Milliseconds to wait before the next request may start (0: now, and the slot is taken). */
  reserve(now = performance.now()): number {
    if (now < this.pausedUntil) return this.pausedUntil - now;
    if (this.#rate === undefined) return 0;
    if (now < this.#nextSendAt) return this.#nextSendAt - now;
    // Up to CATCH_UP_MS of sends may go at once: timers fire late, and a pace that never caught up
    // would run below its rate.
    this.#nextSendAt = Math.max(now - CATCH_UP_MS, this.#nextSendAt) + 1000 / this.#rate;
    return 0;
  }

  #active(now: number): number {
    // Earlier pauses are in #pausedTotal; the last (or current) one runs from #pauseFrom.
    const lastPause = Math.max(0, Math.min(now, this.pausedUntil) - this.#pauseFrom);
    return now - this.#pausedTotal - lastPause;
  }

  /** A request that started at `startedAt` succeeded. */
  success(startedAt: number, now = performance.now()): void {
    if (startedAt >= this.#lastDecrease) this.#eventsInRow = 0;
    const active = this.#active(now);
    const successes = this.#successes;
    successes.push(active);
    while (active - successes[this.#oldest]! > RATE_WINDOW_MS) this.#oldest++;
    if (this.#oldest > 1024 && this.#oldest * 2 > successes.length) {
      this.#successes = successes.slice(this.#oldest);
      this.#oldest = 0;
    }
    if (now < this.pausedUntil || now - this.#lastIncrease < INCREASE_EVERY_MS) return;
    this.#lastIncrease = now;
    this.#limit = Math.min(this.#max, this.#limit + 1);
    if (this.#rate !== undefined) this.#rate *= RATE_PROBE;
  }

  /**
   * A request that started at `startedAt` was answered 429 or 503, with `retryAfterMs` when the
   * service said how long to wait. Pauses the job and lowers the limit and the rate.
   */
  throttle(startedAt: number, retryAfterMs: number | undefined, now = performance.now()): void {
    this.throttled++;
    if (startedAt >= this.#lastDecrease) {
      this.#lastDecrease = now;
      this.#lastIncrease = now;
      this.#eventsInRow++;
      this.#limit = Math.max(this.#min, Math.floor(this.#limit * DECREASE));
      const active = this.#active(now);
      let recent = 0;
      for (let i = this.#oldest; i < this.#successes.length; i++) {
        if (active - this.#successes[i]! <= RATE_WINDOW_MS) recent++;
      }
      const span = Math.min(RATE_WINDOW_MS, active);
      if (recent >= RATE_SAMPLE && span > 0) {
        const admitted = (recent * 1000) / span;
        this.#rate = Math.min(this.#rate ?? Number.POSITIVE_INFINITY, admitted) * RATE_MARGIN;
      }
    }
    const backoff = Math.min(
      MAX_PAUSE_MS,
      FIRST_PAUSE_MS * 2 ** Math.max(0, this.#eventsInRow - 1),
    );
    const until = now + (retryAfterMs ?? backoff * (0.8 + Math.random() * 0.4));
    if (until > this.pausedUntil) {
      if (now >= this.pausedUntil) {
        this.#pausedTotal += Math.max(0, this.pausedUntil - this.#pauseFrom);
        this.#pauseFrom = now;
      }
      this.pausedUntil = until;
    }
  }
}
