/**
 * What the refund calls' answers mean, and the results `refunds.request` gives for them: a
 * request's answer by its status (202 accepted, 200 an active refund, or the refund a lost attempt
 * made, found again), what a wait polls, and the search for a lost request's refund in the
 * transaction's list.
 *
 * @module
 */

import type { ResolvedAssumptions } from '../assumptions';
import { RequestValidationError } from '../core/errors';
import { Recovered, serviceClockOffset } from '../core/retry/reconcile';
import { followLocation, isAccepted } from '../core/transport/outcomes';
import {
  type Refund,
  RefundAcceptedResponseSchema,
  RefundExistingResponseSchema,
} from '../schemas/refund';
import { readTimestamp } from '../shared/timestamp';

/** `refunds.request`'s result when the service accepted the refund for processing (HTTP 202, spec §4.2). */
export interface RefundAccepted {
  /** Tells this outcome apart: HTTP 202, the refund is being processed. */
  kind: 'accepted';
  /** The refunded transaction (from the body's `data.transaction_hash`, else the one requested). */
  transactionHash: string;
  /** The status endpoint from the `Location` header (absolute), or `undefined` when the service sent none. */
  statusUrl: string | undefined;
}

/**
 * `refunds.request`'s result when a refund `requested` or `success` already existed for the
 * transaction (HTTP 200, spec §3, §4.2): no new refund was created. Also the result when an
 * attempt's answer was lost and the SDK found the refund it had created (then `recovered` is
 * `true`, and the refund may already be `completed` or `failed`).
 */
export interface RefundExisting {
  /** Tells this outcome apart: HTTP 200, an active refund exists (or a lost attempt's was found). */
  kind: 'existing';
  /** The active refund, or the one the lost attempt created. */
  refund: Refund;
  /**
   * `true` when the answer to this call's request was lost (a time-out, a reset, a 5xx) and the
   * SDK read the transaction's refunds instead of sending it again: `refund` is the one that
   * attempt created (or an active one). Absent on an ordinary answer.
   */
  recovered?: boolean;
}

/**
 * What `refunds.request` returns: the refund was `accepted` for asynchronous processing (HTTP 202),
 * or an active refund already `existing` for the transaction was returned instead (HTTP 200, no
 * new refund created). Narrow on `kind`.
 *
 * @example
 * ```ts
 * const result = await seller.refunds.request('tx_123');
 * if (result.kind === 'accepted') console.log('poll', result.statusUrl);
 * else console.log('already', result.refund.status);
 * ```
 */
export type RefundRequestResult = RefundAccepted | RefundExisting;

/**
 * What `refunds.waitForCompletion` waits for: a transaction hash, what `refunds.request` returned,
 * or a refund itself (an `existing` result's `refund`, one from `refunds.list`), polled by its
 * `transaction_hash`.
 */
export type RefundToAwait = string | RefundRequestResult | Refund;

// Which body the service sent is told by its status (202 accepted, 200 existing), so each is
// checked against its own shape: a wrong-typed refund can never pass as an "accepted" body. A 202
// is the outcome itself (the refund accepted, `Location` where to follow it): a body with `data` is
// checked as the spec shows it, and one without (none, a bare message) still means accepted,
// never an error that would hide a refund the service made.
export const requestResponseSchema = (status: number, body: unknown) => {
  if (status !== 202) return RefundExistingResponseSchema;
  const data = typeof body === 'object' && body !== null ? Reflect.get(body, 'data') : undefined;
  return data === undefined || data === null ? undefined : RefundAcceptedResponseSchema;
};

/**
 * Where a search starts: a `Date` on this machine's clock, a time the service wrote (an event's
 * `created_at`), on the service's clock already, or a `Date` read on another machine's clock (a
 * BullMQ job's enqueue time, a journal's intent written by an earlier run).
 */
export type Since = Date | string | { otherMachine: Date };

/** Whether `value` is a `Date` holding an instant. */
const isInstant = (value: unknown): value is Date =>
  value instanceof Date && !Number.isNaN(value.getTime());

/** A time the service wrote, in ms, or `undefined` when it does not read as one. */
function serviceTime(since: string, timeZone: string): number | undefined {
  try {
    return readTimestamp(since, timeZone, 'earlier').getTime();
  } catch {
    return undefined;
  }
}

/** Checks `since` before anything is sent (`timeZone`: the one a time without offset is read in). */
export function checkSince(since: Since, timeZone: string): void {
  if (isInstant(since)) return;
  if (typeof since === 'string' && serviceTime(since, timeZone) !== undefined) return;
  if (
    typeof since === 'object' &&
    since !== null &&
    isInstant(Reflect.get(since, 'otherMachine'))
  ) {
    return;
  }
  throw new RequestValidationError('Invalid parameters for refunds.findCreatedSince()', [
    {
      path: ['since'],
      message: 'expected a valid Date, a timestamp the service wrote, or { otherMachine: Date }',
      code: 'invalid_type',
    },
  ]);
}

/**
 * Where the search for a lost request's refund starts, in the service's clock (ms): a `Date`
 * `since` moved by the service's clock as its answer's `Date` header tells, a time the service
 * wrote as it is, less the margin. Without a readable
 * `Date` the service's clock is unknown and may be behind this machine's: the window widens by the
 * documented bound (`reconciliation.maxClockSkewMs`), so that the lost refund cannot be missed and
 * sent a second time. A time read on another machine's clock widens by that bound too: the answer's
 * `Date` tells this machine's clock, not that one's.
 */
export function windowStart(
  since: Since,
  response: Response,
  { reconciliation }: ResolvedAssumptions,
): number {
  if (typeof since === 'string') {
    // The service's own time: compared with its refunds' as it is, whatever this machine's clock.
    return (serviceTime(since, reconciliation.timeZone) ?? 0) - reconciliation.marginMs;
  }
  if (!(since instanceof Date)) {
    // That machine's clock may run ahead of the service's by up to the bound, so the lost refund
    // may carry a time up to that much earlier; this machine's offset says nothing of it.
    const { maxClockSkewMs, marginMs } = reconciliation;
    return since.otherMachine.getTime() - maxClockSkewMs - marginMs;
  }
  const offset = serviceClockOffset(response) ?? -reconciliation.maxClockSkewMs;
  return since.getTime() + offset - reconciliation.marginMs;
}

/**
 * The active refund, else the newest created at or after `from` (ms, service clock); a
 * `created_at` that cannot be read counts as recent (`reconciliation` of the client's assumptions:
 * the zone of `created_at`).
 */
export function createdSince(
  refunds: Refund[],
  from: number,
  { refundStatus, reconciliation }: ResolvedAssumptions,
): Refund | undefined {
  const active = refunds.find((refund) => isOneOf(refundStatus.active, refund.status));
  if (active) return active;
  let found: { refund: Refund; at: number } | undefined;
  for (const refund of refunds) {
    const at = createdAt(refund, reconciliation.timeZone);
    if (at >= from && (!found || at >= found.at)) found = { refund, at };
  }
  return found?.refund;
}

/** Whether `status` (absent or `null` in a lenient body) is one of `statuses`. */
function isOneOf(statuses: readonly string[], status: string | null | undefined): boolean {
  return typeof status === 'string' && statuses.includes(status);
}

/**
 * When a refund was made (ms, service clock): an hour a daylight-saving change repeats is read as
 * its second pass, the later instant, so a refund made then counts as recent rather than missed.
 */
function createdAt(refund: Refund, timeZone: string): number {
  try {
    return readTimestamp(refund.created_at ?? '', timeZone, 'later').getTime();
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export function pollTargetOf(refund: RefundToAwait): {
  transactionHash: string;
  statusUrl: string | undefined;
} {
  if (typeof refund !== 'object' || refund === null) {
    // A hash, or anything else, checked where it becomes a path parameter.
    return { transactionHash: refund as string, statusUrl: undefined };
  }
  if ('kind' in refund && refund.kind === 'accepted') return refund;
  // A refund, bare or in an existing result, is polled by its transaction.
  const found = 'kind' in refund && refund.kind === 'existing' ? refund.refund : (refund as Refund);
  return { transactionHash: found.transaction_hash ?? '', statusUrl: undefined };
}

/**
 * What a refund request's answer says: accepted (202, with where to poll), an active refund
 * returned instead (200), or the refund a lost attempt created, found by reconciliation.
 */
export function requestResult(
  body: unknown,
  response: Response,
  transactionHash: string,
): RefundRequestResult {
  if (body instanceof Recovered) {
    return { kind: 'existing', refund: body.value as Refund, recovered: true };
  }
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!isAccepted(response)) return { kind: 'existing', refund: data as Refund };
  const accepted = data as { transaction_hash?: string | null } | undefined;
  return {
    kind: 'accepted',
    transactionHash: accepted?.transaction_hash ?? transactionHash,
    statusUrl: followLocation(response),
  };
}
