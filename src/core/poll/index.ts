/**
 * The one polling loop behind every "wait for" method: back-off between polls, the service's
 * `Retry-After`, an overall deadline, cancellation that ends a pending sleep at once, and a
 * callback on each status change. Each poll is an ordinary replay-safe call, so a transient failure
 * (connection reset, 429, 5xx) is retried by the transport and never seen here as a result; only
 * one whose `Retry-After` is longer than a call waits comes back here, and is waited out as the
 * service asked, within the wait's deadline.
 *
 * @module
 */

import type { SpanScope } from '../../telemetry/types';
import { inSpan, type PendingTelemetry } from '../call-telemetry';
import {
  APIError,
  APIUserAbortError,
  PollTimeoutError,
  RequestValidationError,
  type ValidationIssue,
} from '../errors';
import type { RequestOptions } from '../options';
import { classifyError } from '../retry/classify';
import { retryAfterOf } from '../retry/retry-after';
import { type Clock, isTimerDelay, MAX_TIMER_MS, systemClock } from '../time/clock';
import type { WithResponse } from '../transport/api-promise';
import { checkPollOptionsShape } from './options-shape';

/**
 * How a `waitFor…` method polls. Every field is optional.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const final = await seller.refunds.waitForCompletion('tx_123', {
 *   interval: 2_000,
 *   maxInterval: 30_000,
 *   timeout: 15 * 60_000,
 *   signal: controller.signal,
 *   onStatus: (status) => console.log('refund is now', status),
 * });
 * ```
 */
export interface PollOptions<T = unknown> {
  /**
   * Milliseconds between the first poll (sent at once) and the second. Each later wait is 1.5 times
   * the previous one, up to `maxInterval`. Default 1 000.
   */
  interval?: number | undefined;
  /** The longest wait between two polls, in milliseconds. Default 10 000 (or `interval`, if larger). */
  maxInterval?: number | undefined;
  /**
   * Milliseconds the whole wait may last, polls included. When it is spent (or a poll in flight
   * outlives it) the wait rejects with `PollTimeoutError`, carrying the last status seen. Default
   * 600 000 (10 minutes).
   */
  timeout?: number | undefined;
  /**
   * Cancels the wait: a pending sleep ends at once and no further request is sent; a poll in flight
   * is aborted. The wait rejects with `APIUserAbortError`.
   */
  signal?: AbortSignal | undefined;
  /**
   * Called once per status change (the first status seen counts as one), with the new status and
   * what the poll returned. An error it throws ends the wait with that error.
   */
  onStatus?: ((status: StatusOf<T>, current: T) => void) | undefined;
}

/**
 * A wait's poll options with the `RequestOptions` given after them: that call's `signal` ends the
 * wait too (with the poll options' own, whichever fires first). Its other options apply to each
 * request the wait sends, where the resource passes them.
 *
 * @example
 * ```ts
 * poll(target, withCallSignal(pollOptions, options));
 * ```
 */
export function withCallSignal<T>(
  pollOptions: PollOptions<T> | undefined,
  options: RequestOptions | undefined,
): PollOptions<T> | undefined {
  checkPollOptionsShape(pollOptions);
  const callSignal = options?.signal;
  if (!callSignal) return pollOptions;
  const own = pollOptions?.signal;
  return { ...pollOptions, signal: own ? AbortSignal.any([own, callSignal]) : callSignal };
}

/**
 * The status type of what a wait polls: `RefundState` for a refund, `StatementExportState` (or
 * `undefined` when a poll reports none) for an export; `string | undefined` for anything else.
 */
export type StatusOf<T> = 'status' extends keyof T
  ? Exclude<T['status' & keyof T], null>
  : string | undefined;

/** What the loop polls: resources describe it; the loop knows nothing about refunds or exports. */
export interface PollTarget<T> {
  /** Names the awaited thing in errors, e.g. `refund of transaction tx_1`. */
  what: string;
  /** Sends one poll (a replay-safe call) with these per-call options; resolves with body and response. */
  fetch(options: RequestOptions): Promise<WithResponse<T>>;
  /** The status a poll reports, for `onStatus` and `PollTimeoutError.lastStatus`. */
  status(current: T): StatusOf<T>;
  /** `true` ends the wait with `current`; it may throw to end the wait with an error. */
  isDone(current: T): boolean;
  /** Records the wait as a span named `operation`, an event per status, when telemetry records. */
  trace?: { operation: string; telemetry: PendingTelemetry } | undefined;
}

/** Time as the loop sees it (see {@link Clock}): tests pass a virtual one to check the intervals exactly. */
export type PollClock = Clock;

/** Defaults of {@link PollOptions}. */
export const POLL_DEFAULTS = {
  interval: 1_000,
  maxInterval: 10_000,
  timeout: 600_000,
  /** Each wait is this many times the previous one, up to `maxInterval`. */
  backoff: 1.5,
} as const;

const DEADLINE = Symbol('poll deadline');

export { systemClock };

/**
 * Polls `target` until `isDone`, sleeping between polls (see {@link PollOptions}). The first poll is
 * sent at once. A `Retry-After` on a poll's response (a 429's or a 503's too) makes the next wait
 * at least that long.
 *
 * @throws {PollTimeoutError} `timeout` spent before `isDone`.
 * @throws {APIUserAbortError} `signal` aborted.
 * @throws {RequestValidationError} a poll option out of range (nothing sent).
 */
export function poll<T>(
  target: PollTarget<T>,
  options: PollOptions<T> = {},
  clock: PollClock = systemClock,
): Promise<T> {
  const { trace } = target;
  if (!trace?.telemetry) return pollUntilDone(target, options, clock, undefined);
  return inSpan(trace.telemetry, trace.operation, {}, (span) =>
    pollUntilDone(target, options, clock, span),
  );
}

async function pollUntilDone<T>(
  target: PollTarget<T>,
  options: PollOptions<T>,
  clock: PollClock,
  span: SpanScope | undefined,
): Promise<T> {
  const settings = readPollOptions(options);
  const userSignal = options.signal;
  if (userSignal?.aborted) throw abortError(target, userSignal);

  const started = clock.now();
  const deadline = started + settings.timeout;
  // One signal for the whole wait: the caller's abort and the deadline both end a sleep or a poll.
  const controller = new AbortController();
  const onUserAbort = () => controller.abort(userSignal?.reason);
  userSignal?.addEventListener('abort', onUserAbort, { once: true });
  const deadlineTimer = setTimeout(() => controller.abort(DEADLINE), settings.timeout);

  let lastStatus: StatusOf<T> | undefined;
  let seen = false;
  let interval = settings.interval;
  try {
    for (;;) {
      const answer = await pollOnce(target, controller.signal);
      // A failure the transport would not wait out asks to come back later: a wait like any other.
      if (!('retryAfterMs' in answer)) {
        const status = target.status(answer.data);
        if (!seen || status !== lastStatus) {
          seen = true;
          lastStatus = status;
          span?.event('partner_sdk.poll.status', { 'partner_sdk.poll.status': String(status) });
          options.onStatus?.(status, answer.data);
        }
        if (target.isDone(answer.data)) return answer.data;
      }

      const retryAfter =
        'retryAfterMs' in answer ? answer.retryAfterMs : retryAfterOf(answer.response.headers);
      const wait = Math.max(interval, retryAfter ?? 0);
      interval = Math.min(interval * POLL_DEFAULTS.backoff, settings.maxInterval);
      const left = deadline - clock.now();
      // The wait never outlasts `timeout`: sleep what is left, then give up.
      await clock.sleep(Math.max(0, Math.min(wait, left)), controller.signal);
      if (wait >= left || clock.now() >= deadline) throw DEADLINE;
    }
  } catch (error) {
    if (userSignal?.aborted) throw abortError(target, userSignal);
    if (
      error === DEADLINE ||
      (controller.signal.reason === DEADLINE && error instanceof APIUserAbortError)
    ) {
      throw new PollTimeoutError(target.what, lastStatus, clock.now() - started);
    }
    throw error;
  } finally {
    clearTimeout(deadlineTimer);
    userSignal?.removeEventListener('abort', onUserAbort);
  }
}

/**
 * One poll: its answer, or the wait asked for by a transient failure (a 429, a 503…) whose
 * `Retry-After` the transport would not wait for (longer than a call waits, or than it had left).
 * Any other failure ends the wait.
 */
async function pollOnce<T>(
  target: PollTarget<T>,
  signal: AbortSignal,
): Promise<WithResponse<T> | { retryAfterMs: number }> {
  try {
    return await target.fetch({ signal });
  } catch (error) {
    const { retryable, retryAfterMs } = classifyError(error);
    if (error instanceof APIError && retryable && retryAfterMs !== undefined) {
      return { retryAfterMs };
    }
    throw error;
  }
}

function abortError(
  target: Pick<PollTarget<unknown>, 'what'>,
  signal: AbortSignal,
): APIUserAbortError {
  return new APIUserAbortError(`The wait for ${target.what} was aborted.`, {
    cause: signal.reason,
  });
}

/**
 * Checks `options` as a wait would, for a method that sends something before it waits
 * (`refunds.requestAndWait`): a wrong option is refused before that is sent.
 *
 * @throws {RequestValidationError} a poll option out of range.
 * @example
 * ```ts
 * checkPollOptions(pollOptions); // before the request the wait follows
 * ```
 */
export function checkPollOptions<T>(options: PollOptions<T> | undefined): void {
  readPollOptions(options ?? {});
}

function readPollOptions<T>(options: PollOptions<T>): {
  interval: number;
  maxInterval: number;
  timeout: number;
} {
  checkPollOptionsShape(options);
  const issues: ValidationIssue[] = [];
  const read = (name: 'interval' | 'maxInterval' | 'timeout', fallback: number): number => {
    const value = options[name] ?? fallback;
    if (!isTimerDelay(value)) {
      issues.push({
        path: [name],
        message: `must be a positive number of milliseconds up to ${MAX_TIMER_MS} (got ${String(value)})`,
        code: 'invalid_poll_option',
      });
    }
    return value;
  };
  const interval = read('interval', POLL_DEFAULTS.interval);
  const maxInterval = read('maxInterval', POLL_DEFAULTS.maxInterval);
  const timeout = read('timeout', POLL_DEFAULTS.timeout);
  if (options.onStatus !== undefined && typeof options.onStatus !== 'function') {
    issues.push({ path: ['onStatus'], message: 'must be a function', code: 'invalid_type' });
  }
  if (issues.length > 0) throw new RequestValidationError('Invalid poll options', issues);
  return { interval, maxInterval: Math.max(maxInterval, interval), timeout };
}
