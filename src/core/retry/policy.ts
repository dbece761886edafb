/**
 * When and after how long a failed attempt is sent again: exponential back-off with full jitter, or
 * the service's `Retry-After` (seconds or an HTTP date, up to 60 s), within what the call has
 * left and only where the call's replay policy allows it.
 *
 * The transport runs the loop itself (`attempts.ts`) and gives ky `retry: 0`: ky's own retries
 * do work on every call, retried or not, where deciding here costs nothing until an attempt fails.
 */

import { isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import { BodyTimeout } from '../transport/body';
import { parseRetryAfter } from './retry-after';

/**
 * Whether a call may be sent again after a failure:
 * - `'always'`: the spec makes a repeat harmless (reads, PUT, the refund request, the export request…);
 * - `'unsent'`: only where the service cannot have acted (429, connection refused, name not resolved);
 * - `'never'`: a repeat could act twice.
 */
export type ReplayPolicy = 'always' | 'unsent' | 'never';

/** The longest `Retry-After` waited for; a longer one fails the call at once (never cut short). */
export const MAX_RETRY_AFTER_MS = 60_000;

/** The back-off before the first retry, doubled for each one after it, up to {@link MAX_BACKOFF_MS}. */
export const FIRST_BACKOFF_MS = 300;

/** The longest back-off (before jitter) between attempts without a `Retry-After`. */
export const MAX_BACKOFF_MS = 8_000;

/** Network failures that prove the request never reached the service. */
const UNSENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** The first string `code` along an error's chain of causes (`ECONNREFUSED`…). */
export function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether a failure shows the request never reached the service (safe to send again in any case). */
export function wasNeverSent(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && UNSENT_CODES.has(code);
}

/**
 * Whether a failed attempt may have been acted on by the service: it was sent and no answer said
 * otherwise (a time-out, a reset, a 5xx). A 4xx answer, a 429 included, says the service refused
 * it; a refused connection or an unresolved name says it never arrived.
 */
export function mayHaveActed(error: unknown): boolean {
  if (isHTTPError(error)) return error.response.status >= 500;
  return !wasNeverSent(error);
}

/** The statuses worth another attempt (DESIGN): a time-out, rate limiting, and every server failure. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Whether `error`, an attempt's failure as ky reports it, may be retried under `policy`: `false`
 * when not, else the `Retry-After` the service asked for (`undefined` when none).
 */
function retryVerdict(error: unknown, policy: ReplayPolicy): false | number | undefined {
  if (policy === 'never') return false;
  if (isHTTPError(error)) {
    const status = error.response.status;
    if (!isRetryableStatus(status) || (policy === 'unsent' && status !== 429)) return false;
    return parseRetryAfter(error.response.headers.get('retry-after'));
  }
  if (isTimeoutError(error) || error instanceof BodyTimeout) {
    return policy === 'always' ? undefined : false;
  }
  return isNetworkError(error) && (policy === 'always' || wasNeverSent(error)) ? undefined : false;
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
  const retryAfter = retryVerdict(error, policy);
  if (retryAfter === false) return undefined;
  // A `Retry-After` beyond the cap is not shortened: retrying before the service allows is
  // refused again, so the call fails at once and the error carries the full wait.
  if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) return undefined;
  const wait =
    retryAfter ?? random() * Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (retry - 1));
  return wait < remainingMs ? wait : undefined;
}

/**
 * The part of the `remainingMs` a call has left that the wait before its next attempt may take,
 * after an attempt that failed with `error` after `attemptMs`. After an answer (an HTTP error)
 * the next attempt is given as long as that one took: a wait that left it less would only trade
 * the service's answer for a time-out. After a time-out or a connection failure the attempt's
 * length says nothing of the next one, so the whole remainder counts.
 */
export function timeForWait(error: unknown, remainingMs: number, attemptMs: number): number {
  return isHTTPError(error) ? remainingMs - attemptMs : remainingMs;
}

/** Why an attempt failed, for the retry warning: never the URL (its query may hold a signature). */
export function retryReason(error: unknown): string {
  if (isHTTPError(error)) return `HTTP ${error.response.status}`;
  if (isTimeoutError(error) || error instanceof BodyTimeout) return 'a time-out';
  const code = errorCode(error);
  return code === undefined ? 'a connection failure' : `a connection failure (${code})`;
}
