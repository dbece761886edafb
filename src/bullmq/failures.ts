/**
 * What a processor does with a failed call, in BullMQ's terms: a 429 holds the whole queue for
 * `Retry-After` (BullMQ's manual rate limit) and puts the job back without counting an attempt, as
 * does a login the client holds back (`bulk/login-hold.ts`), for the time the hold has left; a
 * typed refusal (a 4xx, a bad item, a transaction already refunded) fails the job for good (`UnrecoverableError`); a lost
 * connection, a time-out, a 408 or a 5xx is thrown for BullMQ to retry with its back-off, as the
 * error it is. Either way the job's `failedReason` starts with the error's name (and status), so
 * that a job out of attempts names what failed as one failed for good does.
 *
 * @module
 */

import { RateLimitError, UnrecoverableError } from 'bullmq';
import { AlreadyRefundedError } from '../bulk/already-refunded';
import { loginHoldWait } from '../bulk/login-hold';
import { APIError, RequestValidationError } from '../core/errors';
import { MAX_RETRY_AFTER_MS } from '../core/retry/classify';
import { parseRetryAfter } from '../core/retry/retry-after';
import { ownFailureOf } from './refund-truth';

/** What a processor needs of the queue: BullMQ's manual rate limit, and its connection. */
export interface RateLimitedQueue {
  /**
   * Holds every worker of the queue for `ms` milliseconds (`Queue#rateLimit`).
   *
   * @example
   * ```ts
   * await queue.rateLimit(2_000);
   * ```
   */
  rateLimit(ms: number): Promise<void>;
  /**
   * How long the queue is still held (`Queue#getRateLimitTtl`): read before each job, since
   * BullMQ's own workers heed a hold only when they have a `limiter` of their own.
   *
   * @example
   * ```ts
   * const ms = await queue.getRateLimitTtl(Number.MAX_SAFE_INTEGER);
   * ```
   */
  getRateLimitTtl?(maxJobs?: number): Promise<number>;
  /**
   * The queue's backend, whose raw Redis client (`getBackend().client`, on BullMQ's Redis-backed
   * queues) holds `refundProcessor`'s leases when it is given no `redis` of its own.
   *
   * @example
   * ```ts
   * const redis = await queue.getBackend().client;
   * ```
   */
  getBackend?(): {
    /** The backend's raw Redis client: an ioredis one on BullMQ's Redis backend. */
    readonly client?: Promise<unknown>;
  };
}

/** Without a `Retry-After`, how long a 429 holds the queue. */
const DEFAULT_PAUSE_MS = 1_000;

/** Statuses worth a retry: the request may go through later. */
const TRANSIENT = new Set([408, 500, 502, 503, 504]);

function retryAfterOf(error: APIError): number {
  const ms = (error as { retryAfterMs?: number }).retryAfterMs;
  return ms ?? parseRetryAfter(error.headers.get('retry-after')) ?? DEFAULT_PAUSE_MS;
}

/**
 * Puts the job back while the queue is held by a 429 (`queue.rateLimit`), before anything is
 * sent. BullMQ's workers read the hold only to compare it with a `limiter`'s `max`, so a worker
 * without a limiter (as the guide has them, the pace being the client's) would go on taking jobs
 * while another is told to wait. The hold is the key set to the largest safe integer: given that
 * as the `max`, BullMQ answers its time left, and never the window of a `limiter`'s own count.
 */
export async function heedHold(queue: RateLimitedQueue): Promise<void> {
  if (typeof queue.getRateLimitTtl !== 'function') return;
  const left = await queue.getRateLimitTtl(Number.MAX_SAFE_INTEGER);
  if (left > 0) throw new RateLimitError();
}

/** Turns a call's failure into what BullMQ should do with the job; always throws. */
export async function rethrowForBullmq(error: unknown, queue: RateLimitedQueue): Promise<never> {
  // BullMQ's own verdicts (the put-back of heedHold, a seller function's UnrecoverableError) are
  // what BullMQ reads by their class and message: passed on untouched.
  if (error instanceof RateLimitError || error instanceof UnrecoverableError) throw error;
  // The client holds its logins back: nothing was sent, and no job can be until the hold ends.
  const held = loginHoldWait(error);
  if (held !== undefined) {
    await queue.rateLimit(Math.max(1, Math.ceil(held)));
    throw new RateLimitError();
  }
  if (error instanceof APIError && error.status === 429) {
    const wait = retryAfterOf(error);
    // Longer than the SDK ever waits (a broken or hostile answer asking for a year): holding the
    // whole queue that long would stop every worker silently; the job fails for good instead,
    // naming the wait, as a call fails with it.
    if (wait > MAX_RETRY_AFTER_MS) {
      throw unrecoverable(error, ` (Retry-After ${Math.ceil(wait / 1_000)} s)`);
    }
    await queue.rateLimit(wait);
    throw new RateLimitError();
  }
  // A completed refund stays completed: a retry would read the same and refuse again.
  if (error instanceof RequestValidationError || error instanceof AlreadyRefundedError) {
    throw unrecoverable(error);
  }
  if (error instanceof APIError && !TRANSIENT.has(error.status) && error.status < 500) {
    throw unrecoverable(error);
  }
  throw error instanceof Error ? withNamedMessage(error) : error;
}

/** `error`'s message led by its name and status, as BullMQ keeps it: `NotFoundError 404: …`. */
function namedMessage(error: Error): string {
  const status = error instanceof APIError ? ` ${error.status}` : '';
  return `${error.name}${status}: ${error.message}`;
}

function unrecoverable(error: Error, detail = ''): UnrecoverableError {
  return new UnrecoverableError(`${namedMessage(error)}${detail}`);
}

/**
 * A copy of `error` for BullMQ to retry, its message {@link namedMessage}: BullMQ keeps only the
 * message as the job's `failedReason`. The copy keeps the class, status and cause (what a `failed`
 * listener reads); the call's own error is left as it was, since one error can end many jobs' calls
 * (every call that waited on one failed login gets the same), and what is written on one job's
 * failure must not reach another's.
 */
function withNamedMessage<E extends Error>(error: E): E {
  const own = Object.getOwnPropertyDescriptors(error);
  return Object.create(Object.getPrototypeOf(error), {
    ...own,
    message: { value: namedMessage(error), writable: true, configurable: true },
    // V8 keeps `stack` behind an accessor that answers nothing on another object.
    stack: { value: error.stack, writable: true, configurable: true },
  });
}

/**
 * The error a failed job's reason names, read back from what {@link namedMessage} writes
 * (`<ErrorName>[ <status>]: <message>`), after what a refund job says of its refund ahead of it
 * (`refund-truth.ts`); any other reason (a stalled job's, BullMQ's own) names none and counts as
 * `Error`.
 */
export function errorNameOfReason(reason: unknown): string {
  const named =
    typeof reason === 'string'
      ? /^([A-Z][A-Za-z0-9]*)(?: \d{3})?: /.exec(ownFailureOf(reason))
      : null;
  return named?.[1] ?? 'Error';
}
