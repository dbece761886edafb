/**
 * When a failed attempt is tried again. ky does the waiting (exponential back-off with full jitter,
 * `Retry-After` in seconds or as an HTTP date, capped at 60 s); this module only decides *whether*,
 * from the call's replay policy, and refuses a `Retry-After` longer than the call has left.
 */

import type { RetryOptions } from 'ky';
import { isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import { parseRetryAfter } from './errors';

/**
 * Whether a call may be sent again after a failure:
 * - `'always'`: the spec makes a repeat harmless (reads, PUT, the refund request, the export request…);
 * - `'unsent'`: only where the service cannot have acted (429, connection refused, name not resolved);
 * - `'never'`: a repeat could act twice.
 */
export type ReplayPolicy = 'always' | 'unsent' | 'never';

/** The longest `Retry-After` honoured; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 60_000;

// The statuses ky retries itself, honouring Retry-After. Any other status ≥ 500 (DESIGN retries
// them all) is retried by `shouldRetry`, with plain back-off: ky copies these lists on every call,
// and the whole 500–599 range cost ~2 µs a call (issue 8).
const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];
const ALL_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** Network failures that prove the request never reached the service. */
const UNSENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

function errorCode(error: unknown): string | undefined {
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

/** What a call hands its ky request as `context`; ky gives it back on an `HTTPError` (`error.options.context`). */
export interface RetryContext {
  /** Epoch ms at which the call's `totalTimeout` ends. */
  deadline: number;
}

/**
 * Told of each retry ky is about to make, with the failed request and why it failed: the client's
 * warning. Given to {@link retryOptions} rather than as a ky hook, since ky merges every hook into
 * every call's options (measured at ~5% of a call at concurrency 32, issue 8).
 */
export type RetryListener = (request: Request, reason: string, retryCount: number) => void;

/**
 * Whether to retry after `error`, for one replay policy: `undefined` leaves the wait to ky (which
 * honours `Retry-After` for every status it is given here). The one per-call value it needs, the
 * deadline, comes from the request's ky `context`.
 */
function verdict(policy: ReplayPolicy, error: Error): boolean | undefined {
  if (isHTTPError(error)) {
    const status = error.response.status;
    if (policy === 'unsent' && status !== 429) return false;
    if (!RETRY_STATUSES.includes(status)) return status >= 500;
    const retryAfter = parseRetryAfter(error.response.headers.get('retry-after'));
    const deadline = (error.options.context as Partial<RetryContext> | undefined)?.deadline;
    if (
      retryAfter !== undefined &&
      deadline !== undefined &&
      Math.min(retryAfter, MAX_RETRY_AFTER_MS) > deadline - Date.now()
    ) {
      return false;
    }
    return undefined;
  }
  if (isTimeoutError(error)) return policy === 'always';
  if (isNetworkError(error)) return policy === 'always' || wasNeverSent(error);
  return false;
}

function shouldRetryFor(
  policy: ReplayPolicy,
  onRetry: RetryListener | undefined,
): NonNullable<RetryOptions['shouldRetry']> {
  return ({ error, retryCount }) => {
    const retry = verdict(policy, error);
    const request = (error as { request?: Request }).request;
    if (retry !== false && onRetry && request) {
      onRetry(
        request,
        isHTTPError(error) ? `HTTP ${error.response.status}` : error.message,
        retryCount,
      );
    }
    return retry;
  };
}

/**
 * ky's retry options for calls of one replay policy and retry limit: static, so a client builds
 * them once per pair (in its `ky.create()` options) rather than once per call. Pass the call's
 * deadline as `context: { deadline }` ({@link RetryContext}): a `Retry-After` that would wake after
 * it fails the call at once instead of sleeping in vain.
 */
export function retryOptions(
  limit: number,
  policy: ReplayPolicy,
  onRetry?: RetryListener,
): RetryOptions {
  return {
    limit: policy === 'never' ? 0 : limit,
    methods: ALL_METHODS,
    statusCodes: RETRY_STATUSES,
    afterStatusCodes: RETRY_STATUSES,
    maxRetryAfter: MAX_RETRY_AFTER_MS,
    backoffLimit: 8_000,
    jitter: true,
    // No `retryOnTimeout`: `shouldRetry` answers every time-out itself, so ky never reads it.
    shouldRetry: shouldRetryFor(policy, onRetry),
  };
}
