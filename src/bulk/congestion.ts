/**
 * Adaptive pace for a bulk job: a request rate that finds and holds the service's rate limit, a
 * concurrency limit (additive increase, multiplicative decrease), and `Retry-After` honoured for
 * every refused request. `docs/bulk-and-cli.md` ("The pace") states the rule and its reasoning.
 *
 * - A 429 or 503 is a congestion event once (answers to requests sent before the last event are
 *   part of it). It halves the concurrency and re-estimates the rate. The refused request waits
 *   its `Retry-After` (when THAT request would be admitted); the others go on at the lowered pace.
 *   The whole job pauses only when the service says it admits nothing now: no `Retry-After` (a
 *   back-off that doubles with each event in a row, 1 s to 30 s), or a second event with no
 *   success between.
 * - A refusal while the pace held below the estimate, 50 or more admissions after the last one,
 *   is a real clock's bunching (a late timer, a stalled service), not a lower limit: the estimate
 *   stands.
 * - With a bucket of one ({@link SMALL_BURST}), a refusal that is rare among the admissions since
 *   the last event is two requests bunched by a real clock, refused whatever the pace: not an
 *   event at all, only its item waits. Rarer than one in 50, or one in 25 (and up to three in a
 *   row, a stall's) while the pace holds at or below the estimate; and never an event when its
 *   request reached the service right behind an admitted one held on the way (that one's answer
 *   took longer by more than half their spacing). A probe refused above the estimate does not
 *   lower it: with a bucket of one the spans measure the pace, late timers included, not R.
 * - The first event also measures the service's burst: what it admitted before refusing, less
 *   what its rate gave meanwhile. Until a second event the rate is only known from below, so it
 *   searches upwards fast (doubling every `SEARCH_DOUBLING_MS`, `pace-curve.ts`).
 * - Every later event bounds the service's rate from the admissions since the last pause
 *   (`admitted.ts`: the burst taken off, so that a burst does not pass for a rate). The pace
 *   restarts just below the estimate (`BELOW`), climbs back to it over a plateau, and only
 *   then probes further, faster and faster (doubling `DOUBLE_AFTER_MS` later): a limit
 *   that was raised is found, one that was not is crossed rarely. The plateau is short after a
 *   fall and long while the limit holds ({@link PaceCurve} `plateauAfter`).
 *
 * @module
 */

import { AdmittedLog } from './admitted';
import { ISOLATED_COUNT, PaceCurve, SMALL_BURST } from './pace-curve';

const DECREASE = 0.5;

const INCREASE_EVERY_MS = 100;

/** A late timer may send what it owes at once, up to this much time's worth… */
const CATCH_UP_MS = 20;

/** The longest a paced job sleeps before it looks at its (rising) pace again. */
const MAX_WAIT_MS = 50;

/** …and never more than this share of the service's burst… */
const CATCH_UP_BURST = 0.5;

/** …plus this share of an interval, which a timer's lateness rarely exceeds. */
const LATE = 0;

/** The span over which a small bucket's refusals are counted against its admissions. */
const BUNCH_WINDOW_MS = 5_000;

/** Admissions since the last event before a lone refusal may pass for bunching. */
const BUNCH_MIN_ADMITTED = 10;

/**
 * While a small bucket's pace holds at or below its estimate, refusals pass for bunching up to
 * one in this many admissions…
 */
const HOLDING_SHARE = 25;

/** …and never fewer than this many: a stall that held several requests refuses all but one. */
const HOLDING_CLUSTER = 3;

/**
 * A refused request that reached the service at under this share of the spacing it was sent at,
 * after the last admitted one, was bunched with it on the way (a stall delayed that one).
 */
const HELD_ON_THE_WAY = 0.5;

const FIRST_PAUSE_MS = 1_000;

const MAX_PAUSE_MS = 30_000;

/** The concurrency limit, the request rate and the job-wide pause. */
export class Congestion {
  readonly #min: number;
  readonly #max: number;
  readonly #admitted = new AdmittedLog();
  /** The times of refusals since the first event, with a small bucket (see {@link SMALL_BURST}). */
  readonly #refusals = new AdmittedLog();
  #limit: number;
  #startedAt: number | undefined;
  /** Requests admitted before the first 429. */
  #admittedBefore = 0;
  #lastDecrease = Number.NEGATIVE_INFINITY;
  #lastIncrease = 0;
  #eventsInRow = 0;
  /** Time of the last congestion event. */
  #lastEvent = Number.NEGATIVE_INFINITY;
  /** The service's burst as measured at the first event. */
  #burst: number | undefined;
  /** The estimate and the pace's curve from it. */
  readonly #curve = new PaceCurve();
  /** When the last request was due to go, on the pace (a late one is counted as on time). */
  #lastSendAt = Number.NEGATIVE_INFINITY;
  /** When the last admitted request (the latest sent) started, and how long its answer took. */
  #lastAdmittedAt = Number.NEGATIVE_INFINITY;
  #lastAdmittedTook = 0;
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

  /** The current request rate in requests per second, if the service has pushed back. */
  get rate(): number | undefined {
    return this.#curve.rate;
  }

  /** The service's burst as measured at the first 429, if any. */
  get burst(): number | undefined {
    return this.#burst;
  }

  /** Milliseconds to wait before the next request may start (0: now, and the slot is taken). */
  reserve(now = performance.now()): number {
    this.#startedAt ??= now;
    if (now < this.pausedUntil) return this.pausedUntil - now;
    const rate = this.#curve.at(now);
    if (rate === undefined) return 0;
    const interval = 1000 / rate;
    const due = this.#lastSendAt + interval;
    // The pace may rise while the job waits: wake up often enough to follow it.
    if (now < due) return Math.min(due - now, MAX_WAIT_MS);
    // A late timer may catch up, but never in a burst the service would refuse.
    const burst = this.#burst ?? 1;
    const catchUp = Math.min(CATCH_UP_MS, ((burst - 1) * CATCH_UP_BURST + LATE) * interval);
    // The first request after a pause catches up nothing: the pause was no timer's lateness.
    this.#lastSendAt = Math.max(due, now - (this.#lastSendAt < this.#curve.from ? 0 : catchUp));
    return 0;
  }

  /** A request that started at `startedAt` succeeded. */
  success(startedAt: number, now = performance.now()): void {
    if (startedAt > this.#lastDecrease) this.#eventsInRow = 0;
    // Until the first 429 only their number matters (the burst): a job that is never refused
    // keeps no times at all.
    if (this.#burst === undefined) this.#admittedBefore++;
    else this.#admitted.record(now);
    if (startedAt > this.#lastAdmittedAt) {
      this.#lastAdmittedAt = startedAt;
      this.#lastAdmittedTook = now - startedAt;
    }
    if (now < this.pausedUntil || now - this.#lastIncrease < INCREASE_EVERY_MS) return;
    this.#lastIncrease = now;
    this.#limit = Math.min(this.#max, this.#limit + 1);
  }

  /**
   * A request that started at `startedAt` was answered 429 or 503, with `retryAfterMs` when the
   * service said how long to wait. Lowers the limit and the rate at a congestion event, and
   * returns how long the refused request waits before it is sent again (its `Retry-After`). The
   * whole job pauses too only when the refusal says the service admits nothing now: no
   * `Retry-After`, or a second event in a row with nothing admitted since the first.
   */
  throttle(startedAt: number, retryAfterMs: number | undefined, now = performance.now()): number {
    this.throttled++;
    // A small bucket's rare refusal is two requests bunched by a real clock: only its item waits.
    const event =
      startedAt > this.#lastDecrease &&
      !this.#heldOnTheWay(startedAt, retryAfterMs, now) &&
      !this.#bunched(now, retryAfterMs);
    const admittedSince = this.#admittedSinceEvent();
    if (event) {
      this.#lastDecrease = now;
      this.#lastIncrease = now;
      this.#eventsInRow++;
      this.#limit = Math.max(this.#min, Math.floor(this.#limit * DECREASE));
    }
    const backoff = Math.min(
      MAX_PAUSE_MS,
      FIRST_PAUSE_MS * 2 ** Math.max(0, this.#eventsInRow - 1),
    );
    const wait = retryAfterMs ?? backoff * (0.8 + Math.random() * 0.4);
    // A second event in a row, nothing admitted since the first: the service admits nothing now.
    // (Answers that came back meanwhile count: with slow answers, none sent since may be back.)
    const stalled =
      retryAfterMs === undefined || (event && this.#eventsInRow > 1 && admittedSince === 0);
    if (stalled && now + wait > this.pausedUntil) this.pausedUntil = now + wait;
    if (event) this.#estimateAt(now, startedAt, wait, admittedSince);
    return wait;
  }

  /**
   * With a small bucket, a refusal is bunching, not a rate, while the refusals since the last
   * event (within {@link BUNCH_WINDOW_MS}) are at most one in {@link ISOLATED_COUNT} of the
   * admissions, or the only one after {@link BUNCH_MIN_ADMITTED} admissions: a pace above R is
   * refused far more often than that, a pace below it only when a real clock bunches requests.
   */
  #bunched(now: number, retryAfterMs: number | undefined): boolean {
    if (this.#burst === undefined || this.#burst >= SMALL_BURST) return false;
    this.#refusals.record(now);
    // Without Retry-After the service admits nothing now (rule 2): never bunching.
    if (retryAfterMs === undefined) return false;
    // Refusals an event already answered are not counted again.
    const since = Math.max(now - BUNCH_WINDOW_MS, this.#lastEvent);
    const admitted = this.#admitted.countSince(since);
    // Nothing admitted since the last event allows nothing: the service admits nothing now.
    // Holding at or below the estimate, a refusal comes from a stall, not from the pace.
    const holding = this.#curve.holding;
    const [cluster, share] = holding ? [HOLDING_CLUSTER, HOLDING_SHARE] : [1, ISOLATED_COUNT];
    const allowed = Math.max(admitted >= BUNCH_MIN_ADMITTED ? cluster : 0, admitted / share);
    return this.#refusals.countSince(since) <= allowed;
  }

  /**
   * With a small bucket: the request refused at `now` reached the service well within the spacing
   * it was sent at after the last admitted one, because that one's answer took that much longer
   * (a stall on the way, in either process, delivered the two together). Refused at any pace,
   * so it says nothing about the rate (nor is it counted as a refusal of the pace). Without
   * `Retry-After` the service admits nothing now (rule 2): never.
   */
  #heldOnTheWay(startedAt: number, retryAfterMs: number | undefined, now: number): boolean {
    if (this.#burst === undefined || this.#burst >= SMALL_BURST) return false;
    if (retryAfterMs === undefined) return false;
    const sent = startedAt - this.#lastAdmittedAt;
    if (!(sent > 0)) return false;
    const reached = sent - (this.#lastAdmittedTook - (now - startedAt));
    return reached < sent * HELD_ON_THE_WAY;
  }

  /** Requests admitted since the last congestion event (since the start before the first). */
  #admittedSinceEvent(): number {
    if (this.#burst === undefined) return this.#admittedBefore;
    return this.#admitted.countSince(this.#lastEvent);
  }

  /** Re-estimates the service's rate at a congestion event, and restarts the pace from it. */
  #estimateAt(now: number, startedAt: number, wait: number, admittedSince: number): void {
    // The pace the refused request was sent at (the curve has climbed since).
    const current = this.#curve.at(Math.min(now, Math.max(startedAt, this.#curve.from)));
    // The first estimate spreads what was admitted over the time the refused request waits too:
    // a rate the service can surely give, from which the search climbs.
    const pause = Math.max(this.pausedUntil - now, wait);
    if (this.#burst === undefined) {
      // The first event: what was admitted since the start is the burst plus what the rate gave
      // meanwhile; over the pause to come too, that is a rate the service can give (from below).
      // Nothing admitted yet (answers still on their way): the search starts from one request.
      const admitted = Math.max(1, this.#admittedBefore);
      const elapsed = now - (this.#startedAt ?? now);
      const rate = (admitted * 1000) / (elapsed + pause);
      // So few are a bucket of one, the rest what the rate added while they went (were the
      // burst taken as more, the bounds would read low and a late timer would send a pair).
      const burst = admitted - (rate * elapsed) / 1000;
      this.#burst = burst < SMALL_BURST ? 1 : burst;
      this.#curve.estimate = rate;
      this.#curve.searching = true;
    } else if (
      current !== undefined &&
      admittedSince > 0 &&
      !this.#curve.isolated(now, this.#admitted.countSince(this.#lastEvent))
    ) {
      // A refusal with nothing admitted since the last event says nothing about a rate, and an
      // isolated one is the clock's: neither moves the estimate.
      const curve = this.#curve;
      const bounds = this.#admitted.bounds(now, this.#burst!, this.#lastEvent, curve.from);
      curve.reestimate(current, bounds, this.#burst!, this.#admitted.countSince(curve.from));
    }
    this.#lastEvent = now;
    // The bucket is empty now: the next request waits a whole interval of the new pace.
    this.#lastSendAt = Math.max(this.#lastSendAt, now);
    this.#curve.from = Math.max(now, this.pausedUntil);
    this.#curve.rate = this.#curve.at(this.#curve.from);
  }
}
