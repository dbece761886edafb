/**
 * Reconciliation before a replay: a call whose repeat is not harmless in every state (the refund
 * request) says how to find out whether a lost attempt already acted, and the transport asks
 * before sending it again: a refund request never makes two refunds.
 */

import {
  APIUserAbortError,
  OutcomeUnknownError,
  type RequestIdentity,
  requestLine,
} from '../errors';
import { type Limits, toPartnerError } from '../errors/mapping';
import type { RequestOptions } from '../options';
import type { APIPromise, WithResponse } from '../transport/api-promise';
import { httpDate } from './retry-after';

/** How a call finds what a lost attempt of it may have done on the service. */
export interface Reconciliation {
  /**
   * Looks for the effect of an attempt made at or after `since` (the call's start, this machine's
   * clock): the value found becomes the call's result, `undefined` lets the replay go.
   */
  find(since: Date, options: RequestOptions): APIPromise<unknown>;
  /** What may have happened, for the error thrown when `find` itself fails (e.g. `the refund may have been created`). */
  uncertain: string;
}

/**
 * A call's result found by reconciliation rather than read from the call's own answer; the
 * resource unwraps it (and may say so in its result).
 */
export class Recovered<T = unknown> {
  /** The value `find` returned. */
  readonly value: T;

  constructor(value: T) {
    this.value = value;
  }
}

/**
 * How far the service's clock is ahead of this machine's (negative: behind), in milliseconds,
 * read from a response's `Date` header; `undefined` without one in a form RFC 9110 accepts, when
 * the service's clock is unknown. `Date` has whole seconds and is written before the answer travels, so the
 * estimate runs up to a second or so behind: a window judged with it starts a little early, never
 * late.
 */
export function serviceClockOffset(
  response: Response,
  receivedAt: number = Date.now(),
): number | undefined {
  // Only an HTTP date: a zoneless text would be read in this process's zone, an error of hours.
  const serviceNow = httpDate(response.headers.get('date')?.trim() ?? '');
  return Number.isNaN(serviceNow) ? undefined : serviceNow - receivedAt;
}

/** The lost attempt a reconciliation looks for. */
export interface LostAttempt {
  /** Why its answer was lost. */
  error: unknown;
  identity: RequestIdentity;
  /** When the call started (this machine's clock): anything it did happened after this. */
  since: Date;
  /** The call's time-outs, for the lost attempt's error. */
  limits: Limits;
}

/**
 * Asks whether the `lost` attempt already acted, before its replay: a result found becomes the
 * call's result ({@link Recovered}); `undefined` lets the replay go; a failure to find out ends the
 * call with {@link OutcomeUnknownError}, never a blind replay. So does the caller's abort, before
 * or during the read (none is sent after it): the lost attempt may have acted all the same, and an
 * abort must not read as "nothing happened".
 */
export async function findLostEffect(
  reconciliation: Reconciliation,
  lost: LostAttempt,
  options: RequestOptions,
): Promise<WithResponse<unknown> | undefined> {
  const { signal } = options;
  const { identity } = lost;
  const unknown = (failure: unknown) => {
    // The lost attempt's own failure as it was: the abort only when the abort stopped it.
    const stoppedIt = signal?.aborted && lost.error === signal.reason;
    const attemptError = toPartnerError(
      lost.error,
      identity,
      stoppedIt ? signal : undefined,
      lost.limits,
    );
    return new OutcomeUnknownError(
      identity,
      reconciliation.uncertain,
      lost.since,
      attemptError,
      failure,
    );
  };
  if (signal?.aborted) {
    const message = `${requestLine(identity)} was aborted by the caller before its check was sent.`;
    throw unknown(new APIUserAbortError(message, { cause: signal.reason }));
  }
  try {
    const { data, response } = await reconciliation.find(lost.since, options).withResponse();
    return data === undefined ? undefined : { data: new Recovered(data), response };
  } catch (failure) {
    throw unknown(failure);
  }
}
