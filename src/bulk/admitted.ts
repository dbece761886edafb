/**
 * What the service admitted, and the rate it implies when it refuses: the measurement half of the
 * bulk pace (`congestion.ts` and `pace-curve.ts` hold the rule).
 *
 * A rate limiter of the usual kind (a token bucket: a sustained rate R, and a burst B of requests
 * that may come at once after a quiet spell) admits at most `B + R × t` requests in any span of
 * `t` seconds, and refuses a request only when its bucket is empty. So when a request is refused
 * at `now`, some span ending at `now` held more than the bucket could give:
 *
 * - a span that starts when the bucket was full: `admitted + 1 > B + R × t`, so
 *   `R < (admitted + 1 − B) / t`;
 * - the span since the previous refusal (the bucket was empty then too, and if it never filled in
 *   between, nothing overflowed): `R ≈ (admitted ± 1) / t`.
 *
 * The largest of these over the recent spans is an upper estimate of R that a burst does not fool
 * (the burst is taken off), and that a short span's noise does not either (a span needs a few
 * admissions before it counts).
 *
 * @module
 */

/** How far back admissions are kept: long enough for a span between two refusals. */
const HISTORY_MS = 15_000;
/** Admissions a span needs before its rate is believed (fewer is timer noise). */
const MIN_SPAN_COUNT = 5;

/** The times of admitted requests (on the job's clock), oldest first. */
export class AdmittedLog {
  /** An index, not `shift()`: at a thousand a second the log is large, and shifting copies it. */
  #times: number[] = [];
  #oldest = 0;

  /** Admissions in the log. */
  get size(): number {
    return this.#times.length - this.#oldest;
  }

  /** A request answered at `now` was admitted. */
  record(now: number): void {
    const times = this.#times;
    times.push(now);
    while (now - times[this.#oldest]! > HISTORY_MS) this.#oldest++;
    if (this.#oldest > 1024 && this.#oldest * 2 > times.length) {
      this.#times = times.slice(this.#oldest);
      this.#oldest = 0;
    }
  }

  /** Admissions answered after `since`. */
  countSince(since: number): number {
    const times = this.#times;
    let low = this.#oldest;
    let high = times.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (times[mid]! > since) high = mid;
      else low = mid + 1;
    }
    return times.length - low;
  }

  /**
   * Bounds of the service's rate (per second) from a refusal at `now`, given the burst `burst`
   * the service showed, the time of the refusal before it (`previous`) and the time the job
   * resumed sending after it (`resumed`); `undefined` when fewer than a few requests were
   * admitted since it resumed (the refusal tells too little).
   *
   * `high`: some span ending at the refusal held more than the bucket could give. `low`: every
   * span ending at the last admission held no more than it could. `high` below `low` means the
   * spans do not fit one rate (the pace climbed fast through them).
   */
  bounds(
    now: number,
    burst: number,
    previous: number,
    resumed: number,
  ): { low: number; high: number } | undefined {
    const times = this.#times;
    const last = times.length - 1;
    let high = Number.NEGATIVE_INFINITY;
    let low = 0;
    let admitted = 0;
    for (let i = last; i >= this.#oldest && times[i]! >= resumed; i--) {
      admitted++;
      const span = now - times[i]!;
      const held = times[last]! - times[i]!;
      if (held > 0) low = Math.max(low, ((admitted - burst) * 1000) / held);
      if (admitted >= MIN_SPAN_COUNT && span > 0) {
        high = Math.max(high, ((admitted + 1 - burst) * 1000) / span);
      }
    }
    if (admitted < MIN_SPAN_COUNT) return undefined;
    if (now - previous < HISTORY_MS) {
      const since = this.countSince(previous);
      high = Math.max(high, ((since + 1) * 1000) / (now - previous));
      low = Math.max(low, ((since - 1) * 1000) / (now - previous));
    }
    return { low, high };
  }
}
