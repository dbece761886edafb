/**
 * What a failed refund job says first: whether one of its refund requests took effect, or may
 * have. A job whose first run's request was answered 2xx in a shape the SDK could not read (the
 * refund was made) and whose later runs failed to read the transaction's refunds would otherwise
 * end with the last read's error as its `failedReason`, the refund it made nowhere in it; an
 * operator who then enqueued it again could refund the transaction twice.
 *
 * The fact travels in the reasons themselves: BullMQ keeps each attempt's `failedReason` on the
 * job, which the next attempt is handed, so a run reads what the runs before it learned there and
 * writes it again ahead of its own failure. A run whose check of the transaction's refunds found
 * none has learned that no earlier request took effect, and drops what those said. A run whose
 * worker died after sending told BullMQ nothing: what it marked in Redis before sending stands in.
 *
 * @module
 */

import { RateLimitError } from 'bullmq';
import { OutcomeUnknownError, ResponseValidationError } from '../core/errors';
import { classifyError } from '../core/retry/classify';

const TOOK_EFFECT = 'A refund request of this job took effect';
const MAY_HAVE = 'A refund request of this job may have taken effect';
/** Between what the job knows of its refund and the attempt's own failure. */
const LAST_FAILURE = ' Last failure: ';

/** What one run knows of its job's refund requests, when it fails. */
export interface RefundRun {
  /** Its refund request went out (`refunds.request` was called). */
  sent: boolean;
  /** Its check of the transaction's refunds ran and found none made since the job was enqueued. */
  checkedNone: boolean;
  /** A run of the job before it marked its request sent (it may have died before its answer). */
  sentBefore: boolean;
}

/** What the job says when a run before this one sent its request and told BullMQ nothing more. */
const SENT_BEFORE = `${MAY_HAVE} (a run sent it and ended without its answer): read the transaction's refunds (refunds.findCreatedSince) before enqueueing it again.`;

/** What `error`, the failure of a run that sent its request, says of the refund. */
function truthOfSent(error: unknown): string | undefined {
  if (error instanceof ResponseValidationError && error.tookEffect) {
    return `${TOOK_EFFECT} (answered ${error.status}, in a shape the SDK could not read): its refund is made or under way, do not enqueue it again.`;
  }
  if (error instanceof OutcomeUnknownError || classifyError(error).mayHaveActed) {
    return `${MAY_HAVE} (its answer was lost): read the transaction's refunds (refunds.findCreatedSince) before enqueueing it again.`;
  }
  return undefined;
}

/** What the runs before this one said of the refund, read from the last one's `failedReason`. */
function truthBefore(failedReason: unknown): string | undefined {
  if (typeof failedReason !== 'string') return undefined;
  if (!failedReason.startsWith(TOOK_EFFECT) && !failedReason.startsWith(MAY_HAVE)) return undefined;
  const end = failedReason.indexOf(LAST_FAILURE);
  return end === -1 ? undefined : failedReason.slice(0, end);
}

/** The stronger of two truths: a refund made outweighs one that may have been. */
function stronger(a: string | undefined, b: string | undefined): string | undefined {
  if (a?.startsWith(TOOK_EFFECT)) return a;
  if (b?.startsWith(TOOK_EFFECT)) return b;
  return a ?? b;
}

/**
 * `thrown`, what BullMQ is to be told of a run's failure (`error`), its message led by what the
 * job knows of its refund: the stronger of what this run learned and what the earlier runs said,
 * unless this run's check found no refund. It stays the error it is (its class, status and cause
 * are what a `failed` listener reads), since BullMQ takes the `failedReason` from its message. A
 * put-back (`RateLimitError`) is no failure and is left alone.
 */
export function withRefundTruth(
  thrown: unknown,
  error: unknown,
  run: RefundRun,
  failedBefore: unknown,
): unknown {
  if (thrown instanceof RateLimitError || !(thrown instanceof Error)) return thrown;
  const marked = run.sentBefore ? SENT_BEFORE : undefined;
  const earlier = run.checkedNone ? undefined : stronger(truthBefore(failedBefore), marked);
  const truth = stronger(run.sent ? truthOfSent(error) : undefined, earlier);
  if (truth !== undefined) thrown.message = `${truth}${LAST_FAILURE}${thrown.message}`;
  return thrown;
}

/** `reason` without the truth ahead of it: the attempt's own failure (for its error's name). */
export function ownFailureOf(reason: string): string {
  return truthBefore(reason) === undefined
    ? reason
    : reason.slice(reason.indexOf(LAST_FAILURE) + LAST_FAILURE.length);
}
