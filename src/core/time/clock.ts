/**
 * Time as the transport and the polling loop see it. Everyone gets the real clock; tests pass
 * a virtual one, so that retries, back-offs and deadlines are checked exactly and at once.
 */

import { sleep } from './sleep';

/** A source of time and of waits. */
export interface Clock {
  /** Milliseconds since an arbitrary origin (`Date.now()` for the real clock). */
  now(): number;
  /** Resolves after `ms`, or rejects at once (clearing its timer) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: `Date.now()` and a timer that is cleared, with its listener removed, on abort. */
export const systemClock: Clock = { now: () => Date.now(), sleep };

/** The longest delay a timer can wait (2^31 - 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

/** Whether `value` is a delay a timer can wait: a positive number of milliseconds up to {@link MAX_TIMER_MS}. */
export function isTimerDelay(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS;
}
