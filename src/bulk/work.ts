/**
 * An item on its way through a bulk job, and what its failures mean to the job: the item's
 * state, the error an item in doubt fails with, how a failure is classified, a journal's failure
 * told apart from the item's, and the key every item is known by.
 *
 * @module
 */

import { APIError, PartnerError, RequestValidationError } from '../core/errors';
import { classifyError } from '../core/retry/classify';

/** One item on its way through the job. */
export interface Work<I> {
  item: I;
  key: string;
  attempts: number;
  throttles: number;
  /** A request of this item may have reached the service unanswered: reconcile before sending. */
  inDoubt: boolean;
  /** When the earliest such request was about to be sent (ISO 8601). */
  since: string | undefined;
  /**
   * `since` came from an earlier run's journal record: read on the clock of the machine that ran
   * it, which may not be this one (a Redis journal, a file on shared storage).
   */
  sinceElsewhere: boolean;
  /** Validated and checked against the journal. */
  admitted: boolean;
  /** Refused with `Retry-After`: not sent again before this time (`performance.now()`). */
  notBefore: number;
  /** The operation's read before sending answered for this item (`check`): not read again. */
  checked: boolean;
  /** Its next request has its slot of the pace already (the one the scheduler took to start it). */
  slotted: boolean;
  /** When its latest request started (`performance.now()`): the pace's measure of that request. */
  startedAt: number;
}

/** What a failed try means for the item: the job stopped, the service's pace, a try worth repeating, or none. */
export type Failure = 'aborted' | 'throttled' | 'transient' | 'final';

/**
 * The item was in doubt (its request may have reached the service) and the operation can neither
 * reconcile nor safely repeat it: it is left for a person to check instead of risking a duplicate.
 *
 * @example
 * ```ts
 * for await (const outcome of job) {
 *   if (outcome.status === 'failed' && outcome.error instanceof InDoubtError) console.log('check', outcome.key);
 * }
 * ```
 */
export class InDoubtError extends PartnerError {}
Object.defineProperty(InDoubtError, Symbol.for('partner-sdk.error.brand'), {
  value: 'partner-sdk.InDoubtError',
});

/**
 * Whether `error` is the service's own answer to a request its rate limit let through: a 4xx other
 * than 408 (a proxy's time-out) and 429 (the limit itself). A transaction it does not know, a
 * refused change: each took a slot of the limit as a success does, so the pace counts it as one.
 */
export function admittedAnswer(error: unknown): boolean {
  if (!(error instanceof APIError)) return false;
  const { status } = error;
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/**
 * What the job does after `error`: core's one classification says whether a repeat may succeed;
 * the job's own pace takes 429 and 503: their item waits its `Retry-After`, the pace slows.
 */
export function classify(error: unknown, aborted: boolean): Failure {
  if (aborted) return 'aborted';
  if (error instanceof APIError && (error.status === 429 || error.status === 503)) {
    return 'throttled';
  }
  return classifyError(error).retryable ? 'transient' : 'final';
}

/** A journal store failed: not an item's failure but the job's. */
export class JournalFailure {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

/** A failure as the journal keeps it: the error's class, message and status, and whether it was in doubt. */
export function describeError(error: unknown, inDoubt: boolean): Record<string, unknown> {
  const detail: Record<string, unknown> = { inDoubt };
  if (error instanceof Error) {
    detail.error = error.name;
    detail.message = error.message;
  } else detail.error = String(error);
  if (error instanceof APIError) detail.status = error.status;
  return detail;
}

/** The item's outcome is already reported (reconciled, or failed in doubt): nothing to send. */
export const SETTLED = Symbol('settled');

/** A fresh item, not yet admitted. */
export function newWork<I>(item: I): Work<I> {
  return {
    item,
    key: '',
    attempts: 0,
    throttles: 0,
    inDoubt: false,
    since: undefined,
    sinceElsewhere: false,
    admitted: false,
    notBefore: 0,
    checked: false,
    slotted: false,
    startedAt: 0,
  };
}

/** The item's key, checked: a non-empty string. */
export function keyOf<I>(key: (item: I) => string, item: I): string {
  const value = key(item);
  if (typeof value !== 'string' || value === '') {
    throw new RequestValidationError('Invalid bulk item', [
      { path: ['key'], message: 'the item has no key', code: 'invalid_key' },
    ]);
  }
  return value;
}
