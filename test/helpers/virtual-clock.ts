/**
 * A virtual clock for the transport: its waits (retry back-offs, `Retry-After`) end at once and
 * move its time forward instead, so tests assert on the waits themselves, not on wall time. Time
 * spent for real (an attempt on loopback) still counts: `now()` is the wall clock plus every wait
 * skipped so far.
 */

import type { Clock } from '../../src/core/time/clock';

/** A {@link Clock} that records its waits instead of sleeping them. */
export interface VirtualClock extends Clock {
  /** Every wait asked for, in order, in milliseconds. */
  readonly waits: number[];
  /**
   * Moves the time forward by `ms` without a wait: what a slow answer takes, when how long an
   * answer takes is the point and a loaded machine must not add to it.
   */
  advance(ms: number): void;
}

/**
 * A virtual clock. With `hold: true` a wait never ends by itself (only an abort ends it), for
 * tests that abort a call while it waits. With `frozen: true` only its waits and `advance` move
 * it: the time attempts take for real counts for nothing, for tests of a deadline's arithmetic
 * that a loaded machine's delays must not change.
 */
export function virtualClock(options: { hold?: boolean; frozen?: boolean } = {}): VirtualClock {
  let skipped = 0;
  const waits: number[] = [];
  const start = Date.now();
  return {
    waits,
    now: () => (options.frozen ? start : Date.now()) + skipped,
    advance(ms) {
      skipped += ms;
    },
    sleep(ms, signal) {
      waits.push(ms);
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        if (options.hold) return;
        skipped += ms;
        resolve();
      });
    },
  };
}
