/**
 * The pace's curve between two congestion events (`congestion.ts` decides when one happens): the
 * service's rate as last estimated, and the pace over time from there, restarting just below the
 * estimate, climbing back to it over a plateau, then probing further; or, while the rate is only
 * known from below, searching upwards fast. An event re-estimates the rate from the bounds the
 * admissions since the last pause put on it.
 *
 * @module
 */

/** Where the pace restarts after an event, as a share of the estimated rate. */
const BELOW = 0.95;
/** Where the pace holds, as a share of the estimated rate (which may be a little above the real). */
const HOLD = 0.98;
/** Where the estimate goes, as a share of the refused pace, when the refusal tells too little. */
const UNINFORMED = 0.7;
/** …and while refining the search's estimate, which was near. */
const REFINE_STEP = 0.9;
/**
 * Time after the pause until the pace is back at the estimate: short after a change of the
 * service's rate, doubling (up to the longest) while the estimate holds, since then every probe
 * past it costs a pause for nothing.
 */
const MIN_PLATEAU_MS = 4_000;
const FOUND_PLATEAU_MS = 20_000;
const MAX_PLATEAU_MS = 60_000;
/** Estimates this close are the same rate. */
const SAME_RATE = 0.1;
/** Time after that until the pace, probing past the estimate, has doubled it. */
const DOUBLE_AFTER_MS = 4_000;
/** While the rate is only known from below: it doubles this often. */
const SEARCH_DOUBLING_MS = 100;
/** Requests per second beyond which the pace no longer climbs. */
const MAX_RATE = 1_000_000;
/**
 * A refusal after this many admissions since the last one, while the pace held, is bunching, not
 * a lower limit: one in this many is within what a job may meet.
 */
export const ISOLATED_COUNT = 50;
/**
 * A bucket smaller than this holds no spare token: any two requests closer than 1/R at the
 * service are refused, whatever the average pace. A refusal there is a rate only when refusals
 * are frequent.
 */
export const SMALL_BURST = 4;

/** What the admissions since the last pause prove of the rate: at least `low`, at most `high`. */
export interface RateBounds {
  low: number;
  high: number;
}

/** The estimate and the curve of the pace from it. */
export class PaceCurve {
  /** The rate the last event estimated, from below (first event) or from above (later ones). */
  estimate: number | undefined;
  searching = false;
  /** The search has ended, and no estimate from enough spans has followed yet. */
  refining = false;
  /** While refining, the plateau climbs to the pace the search was refused at. */
  refineTo = 0;
  plateau = MIN_PLATEAU_MS;
  /** The estimate before the limit fell, while the pace is below it (0: none). */
  fellFrom = 0;
  /** When the curve starts: the end of the pause after the last event. */
  from = 0;
  /** Requests per second the job may send; `undefined` until the service has pushed back. */
  rate: number | undefined;

  /** Holding at or below the estimate: neither searching nor refining, nor probing past it. */
  get holding(): boolean {
    return !this.searching && !this.refining && (this.rate ?? 0) <= (this.estimate ?? 0);
  }

  /**
   * A refusal while the pace held below the estimate, long after the last one: a real clock
   * bunched requests (a late timer, a stalled service) more than the bucket could take. The
   * estimate stands; only a second refusal soon after says the limit fell.
   */
  isolated(now: number, admittedSinceEvent: number): boolean {
    if (this.searching || this.refining) return false;
    const held = now - this.from <= this.plateau;
    return held && admittedSinceEvent >= ISOLATED_COUNT;
  }

  /**
   * A later event, refused at the pace `current`: the rate from the `bounds` the admissions since
   * the last pause put on it (`burst`: the service's; `admittedSinceCurve`: admissions since the
   * curve started).
   */
  reestimate(
    current: number,
    bounds: RateBounds | undefined,
    burst: number,
    admittedSinceCurve: number,
  ): void {
    if (this.searching) {
      // A search's last spans are few and climb too fast to say more than the pace refused (a
      // bucket drained that soon after the pause holds little burst).
      // The request before the refused one went at the pace one interval earlier: with a small
      // burst, the limit lies between the two.
      const before = current / 2 ** (1000 / current / SEARCH_DOUBLING_MS);
      const high = bounds && bounds.high >= bounds.low ? bounds.high : before;
      this.estimate = Math.min(high, before);
      this.plateau = MIN_PLATEAU_MS;
      this.searching = false;
      this.refining = true;
      this.refineTo = current;
    } else if (bounds) {
      // Below the pace that was refused and what some span proved too much, never below what
      // every span proved admitted: the middle of what the spans allow.
      const high = Math.min(bounds.high, current);
      let estimate = Math.max(bounds.low, (bounds.low + high) / 2);
      // A small bucket's probe, refused above the estimate it held without refusals: the limit
      // lies above that estimate, whatever the spans say (with a bucket of one they measure
      // the pace, late timers included, not the limit).
      const probing = current > (this.estimate ?? 0);
      if (burst < SMALL_BURST && probing) estimate = Math.max(estimate, this.estimate!);
      // The first estimate after a search is the first good one: the limit was just found.
      this.plateau = this.refining ? FOUND_PLATEAU_MS : this.plateauAfter(estimate);
      this.estimate = estimate;
      this.refining = false;
    } else if (admittedSinceCurve > 0) {
      // Refused too soon after the pause to tell why: a lower limit, or a burst it would not
      // take. Well below the refused pace, to find out without a string of pauses.
      // (While refining, the search's estimate was only a guess: nothing fell.)
      // While refining, the search's estimate was only a guess a little too high: nothing fell.
      if (this.refining) this.refineTo = current;
      else this.fellFrom = Math.max(this.fellFrom, this.estimate ?? 0);
      this.estimate = current * (this.refining ? REFINE_STEP : UNINFORMED);
      this.plateau = MIN_PLATEAU_MS;
    }
    // Nothing admitted since the pause: the pause did not help, and the next one is as long as
    // the service asks; a refusal that says nothing about a rate does not lower it.
  }

  /**
   * The plateau after an event that estimated `estimate`: short after a fall and while below
   * where it fell from (the limit may come back), long after a rise (the limit was just found),
   * twice the last while it holds.
   */
  plateauAfter(estimate: number): number {
    const previous = this.estimate ?? estimate;
    if (estimate < previous * (1 - SAME_RATE)) {
      this.fellFrom = Math.max(this.fellFrom, previous);
      return MIN_PLATEAU_MS;
    }
    // Below a rate the service gave before it fell: it may come back, keep looking often.
    if (estimate < this.fellFrom * (1 - SAME_RATE)) return MIN_PLATEAU_MS;
    this.fellFrom = 0;
    if (estimate > previous * (1 + SAME_RATE)) return Math.max(FOUND_PLATEAU_MS, this.plateau);
    return Math.min(MAX_PLATEAU_MS, this.plateau * 2);
  }

  /** The pace at `now` on the curve since the last event (see the module's comment). */
  at(now: number): number | undefined {
    const estimate = this.estimate;
    if (estimate === undefined) return undefined;
    const t = Math.max(0, now - this.from);
    let rate: number;
    const top = this.refining ? this.refineTo / HOLD : estimate;
    if (this.searching) rate = estimate * 2 ** (t / SEARCH_DOUBLING_MS);
    else if (t <= this.plateau) {
      const left = (1 - t / this.plateau) ** (this.refining ? 1 : 3);
      rate = top * HOLD - (top * HOLD - estimate * BELOW) * left;
    } else rate = top * (HOLD + ((t - this.plateau) / DOUBLE_AFTER_MS) ** 3);
    // A search that is never refused would climb without end: beyond any service's rate, the
    // concurrency limit is what holds the job.
    this.rate = Math.min(rate, MAX_RATE);
    return this.rate;
  }
}
