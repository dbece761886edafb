/**
 * When and after how long a failed attempt is sent again: exponential back-off with full jitter, or
 * the service's `Retry-After` (seconds or an HTTP date, up to 60 s), within what the call has
 * left and only where the call's replay policy allows it. Which failures are worth repeating, and
 * which may have acted, is the one classification in `classify.ts`, which bulk jobs read too.
 *
 * The transport runs the loop itself (`attempts.ts`) and gives ky `retry: 0`: ky's own retries
 * do work on every call, retried or not, where deciding here costs nothing until an attempt fails.
 */

import { isNetworkError, isTimeoutError } from 'ky';
import { BodyBroken, BodyTimeout } from '../transport/body';
import { ErrorStatus } from '../transport/error-status';
import {
  classifyFailure,
  errorCode,
  type Failure,
  MAX_RETRY_AFTER_MS,
  tunnelRefusal,
} from './classify';
import { retryAfterOf } from './retry-after';

/**
 * Whether a call may be sent again after a failure:
 * - `'always'`: the spec makes a repeat harmless (reads, PUT, the refund request, the export request…);
 * - `'unsent'`: only where the service cannot have acted (429, connection refused, name not resolved);
 * - `'never'`: a repeat could act twice.
 */
export type ReplayPolicy = 'always' | 'unsent' | 'never';

export { MAX_RETRY_AFTER_MS } from './classify';

/** The back-off before the first retry, doubled for each one after it, up to {@link MAX_BACKOFF_MS}. */
export const FIRST_BACKOFF_MS = 300;

/** The longest back-off (before jitter) between attempts without a `Retry-After`. */
export const MAX_BACKOFF_MS = 8_000;

/**
 * The failure of an attempt as the transport reports it (an error status, or ky's time-out or
 * network error), read through the one classification
 * (`classify.ts`).
 */
function failureOf(error: unknown): Failure {
  if (error instanceof ErrorStatus) {
    const { status, headers } = error.response;
    return { kind: 'answer', status, retryAfterMs: retryAfterOf(headers) };
  }
  if (isTimeoutError(error) || error instanceof BodyTimeout) return { kind: 'timeout' };
  if (isNetworkError(error) || error instanceof BodyBroken) {
    return { kind: 'connection', code: errorCode(error), proxyStatus: tunnelRefusal(error) };
  }
  return { kind: 'other' };
}

/**
 * Whether a failed attempt may have been acted on by the service: it was sent and no answer said
 * otherwise (a time-out, a reset, a 408, a 5xx). Another 4xx, a 429 included, says the service
 * refused it; a refused connection or an unresolved name says it never arrived.
 */
export function mayHaveActed(error: unknown): boolean {
  return classifyFailure(failureOf(error)).mayHaveActed;
}

/** Whether another attempt is made after a failure, and the `Retry-After` the service asked for. */
type RetryVerdict = { retry: false } | { retry: true; retryAfterMs: number | undefined };

/**
 * Whether `error`, an attempt's failure as the transport reports it, may be retried under `policy`: a
 * retryable failure under `'always'`, one that also cannot have acted under `'unsent'`.
 */
function retryVerdict(error: unknown, policy: ReplayPolicy): RetryVerdict {
  const failure = classifyFailure(failureOf(error));
  const allowed = policy === 'always' || (policy === 'unsent' && !failure.mayHaveActed);
  return allowed && failure.retryable
    ? { retry: true, retryAfterMs: failure.retryAfterMs }
    : { retry: false };
}

/**
 * How many milliseconds to wait before retry number `retry` (1 for the first) after `error`, or
 * `undefined` when the call must fail with that error now: the policy forbids a repeat, the
 * failure is not one worth repeating, or the wait would not end within `remainingMs` (what the
 * call has left for it, see {@link timeForWait}), since an attempt that cannot start in time
 * cannot succeed.
 *
 * @param random - a number in [0, 1) for the jitter; tests pin it.
 */
export function retryDelay(
  error: unknown,
  policy: ReplayPolicy,
  retry: number,
  remainingMs: number,
  random: () => number = Math.random,
): number | undefined {
  const verdict = retryVerdict(error, policy);
  if (!verdict.retry) return undefined;
  const { retryAfterMs } = verdict;
  // A `Retry-After` beyond the cap is not shortened: retrying before the service allows is
  // refused again, so the call fails at once and the error carries the full wait.
  if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) return undefined;
  const wait =
    retryAfterMs ?? random() * Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (retry - 1));
  return wait < remainingMs ? wait : undefined;
}

/** Whether the wait after `error` is the one its answer's `Retry-After` asked for (a readable one). */
export function retryAfterAsked(error: unknown): boolean {
  return error instanceof ErrorStatus && retryAfterOf(error.response.headers) !== undefined;
}

/**
 * The part of the `remainingMs` a call has left that the wait before its next attempt may take,
 * after an attempt that failed with `error` after `attemptMs`. After an answer (an HTTP error)
 * the next attempt is given as long as that one took: a wait that left it less would only trade
 * the service's answer for a time-out. After a time-out or a connection failure the attempt's
 * length says nothing of the next one, so the whole remainder counts.
 */
export function timeForWait(error: unknown, remainingMs: number, attemptMs: number): number {
  return error instanceof ErrorStatus ? remainingMs - attemptMs : remainingMs;
}

/** Why an attempt failed, for the retry warning: never the URL (its query may hold a signature). */
export function retryReason(error: unknown): string {
  if (error instanceof ErrorStatus) return `HTTP ${error.response.status}`;
  if (isTimeoutError(error) || error instanceof BodyTimeout) return 'a time-out';
  const code = errorCode(error);
  return code === undefined ? 'a connection failure' : `a connection failure (${code})`;
}
