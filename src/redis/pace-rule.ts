/**
 * The fleet pace's rule, and the same rule run in one process (the fall-back while Redis is away).
 * `pace-scripts.ts` runs it atomically in Redis for the whole fleet; the two must say the same.
 *
 * The budget is a request rate with a queue of slots (virtual scheduling, as GCRA): each request
 * takes the next free slot, `1000 / rate` ms after the one before, so a caller learns in one step
 * when it may send and never asks again in a loop. The rate adapts to the service: additive
 * increase (`increasePerSecond` for every second without a refusal, up to the most) and
 * multiplicative decrease ({@link DECREASE} on the first 429 of a pause). A 429 pauses the budget
 * for its `Retry-After`: no slot is given before that.
 *
 * @module
 */

/** The rate after a refusal, as a share of the rate before it. */
export const DECREASE = 0.8;

/** The pause after a 429 without `Retry-After`: the service asked for none, so one second. */
export const DEFAULT_PAUSE_MS = 1_000;

/** The rule's numbers, after defaults. @internal */
export interface PaceRule {
  readonly startRate: number;
  readonly maxRate: number;
  readonly minRate: number;
  readonly increasePerSecond: number;
}

/** The rule run in this process: the same budget as the fleet's, for this process alone. @internal */
export class LocalBudget {
  readonly #rule: PaceRule;
  rate: number;
  /** When the next slot is free (ms, `Date.now()`). */
  #next = 0;
  /** When the pause ends. */
  #until = 0;
  /** When the rate last grew. */
  #updated: number;

  constructor(rule: PaceRule, now: number) {
    this.#rule = rule;
    this.rate = rule.startRate;
    this.#updated = now;
  }

  /** Takes the next slot: milliseconds to wait before sending. */
  take(now: number): number {
    if (now > this.#until) {
      const since = Math.max(this.#updated, this.#until);
      const grown = this.rate + (this.#rule.increasePerSecond * (now - since)) / 1000;
      this.rate = Math.min(this.#rule.maxRate, grown);
      this.#updated = now;
    }
    const slot = Math.max(this.#next, now, this.#until);
    this.#next = slot + 1000 / this.rate;
    return slot - now;
  }

  /** A 429: the first of a pause lowers the rate; every one holds the slots until its end. */
  refused(now: number, pauseMs: number): void {
    if (now >= this.#until) this.rate = Math.max(this.#rule.minRate, this.rate * DECREASE);
    this.#until = Math.max(this.#until, now + pauseMs);
  }

  /** Starts again from what the fleet's budget said last (when Redis goes away). */
  adopt(rate: number, until: number, now: number): void {
    this.rate = rate;
    this.#until = until;
    this.#next = now;
    this.#updated = now;
  }
}
