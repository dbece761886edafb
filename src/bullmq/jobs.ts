/**
 * The jobs `partner-sdk/bullmq` puts on a queue: their names, data and ids. An id is derived from
 * the item (the transaction, the offer), so a transaction enqueued twice is one job: BullMQ adds
 * nothing for an id it already holds.
 *
 * @module
 */

import { RequestValidationError } from '../core/errors';
import type { OfferUpdateParams } from '../schemas/offer';
import type { RefundRequestParams } from '../schemas/refund';
import type { JobTraceContext } from './trace-context';

/** The job names of the three operations. */
export const JOB_NAMES = {
  /** A refund request (`refunds.request`), reconciled before it is sent again. */
  refund: 'refund-request',
  /** A wait for a refund's final status (`refunds.waitForCompletion`). */
  refundWait: 'refund-wait',
  /** An offer update (`offers.update`). */
  offerUpdate: 'offer-update',
} as const;

/** A refund request job's data: plain JSON, no secret (a seller token never goes into Redis). */
export interface RefundJobData {
  /** The transaction to refund. */
  transactionHash: string;
  /** As for `refunds.request`. */
  params?: RefundRequestParams;
  /**
   * The seller the job is for: a reference of the partner's own (an account id, never a token:
   * job data is kept in Redis in clear), from which a worker given a function of the seller picks
   * its client. Left out, the job runs as the worker's one client.
   */
  seller?: string;
  /**
   * Refuse the refund when the transaction already has a `completed` one and none active, as
   * `requestRefunds`' option of that name does: the job fails for good with
   * `AlreadyRefundedError`, nothing sent. Given here, the producer's word for this job; left out,
   * the processor's `unlessRefunded` decides.
   */
  unlessRefunded?: boolean;
  /** Set by the producer: the trace context it was called in (W3C), for the job's span. */
  trace?: JobTraceContext;
}

/** A refund wait job's data. */
export interface RefundWaitJobData {
  /** The transaction whose refund to wait for. */
  transactionHash: string;
  /**
   * The seller the job is for: a reference of the partner's own (an account id, never a token:
   * job data is kept in Redis in clear), from which a worker given a function of the seller picks
   * its client. Left out, the job runs as the worker's one client.
   */
  seller?: string;
  /** Set by the producer: the trace context it was called in (W3C), for the job's span. */
  trace?: JobTraceContext;
}

/** An offer update job's data. */
export interface OfferUpdateJobData {
  /** Product hash. */
  productHash: string;
  /** Offer code. */
  offerCode: string;
  /** The settings to write. */
  params: OfferUpdateParams;
  /**
   * The seller the job is for: a reference of the partner's own (an account id, never a token:
   * job data is kept in Redis in clear), from which a worker given a function of the seller picks
   * its client. Left out, the job runs as the worker's one client.
   */
  seller?: string;
  /** Set by the producer: the trace context it was called in (W3C), for the job's span. */
  trace?: JobTraceContext;
}

// BullMQ refuses a custom id holding ':'; encoding keeps any key apart from any other.
const part = (value: string) => encodeURIComponent(value);

/**
 * The job id of an item: `refund-request/<hash>`, `refund-wait/<hash>`,
 * `offer-update/<product>/<offer>`. The same item always gets the same id.
 *
 * @throws {RequestValidationError} `data` is no object, or a field naming the item is no string.
 *
 * @example
 * ```ts
 * jobIdOf('refund-request', { transactionHash: 'trx_1' }); // 'refund-request/trx_1'
 * ```
 */
export function jobIdOf(
  name: (typeof JOB_NAMES)[keyof typeof JOB_NAMES],
  data: { transactionHash: string } | { productHash: string; offerCode: string },
): string {
  const fields = idFields(name, data);
  const checked = jobDataOf({ data: data as Record<string, string> }, fields);
  return [name, ...fields.map((field) => part(checked[field]!))].join('/');
}

/** The fields that name an item of the job `name`; by the data's shape for a name of the partner's own. */
function idFields(name: string, data: unknown): readonly string[] {
  const offer = ['productHash', 'offerCode'];
  if (name === JOB_NAMES.offerUpdate) return offer;
  if (name === JOB_NAMES.refund || name === JOB_NAMES.refundWait) return ['transactionHash'];
  return typeof data === 'object' && data !== null && 'transactionHash' in data
    ? ['transactionHash']
    : offer;
}

/**
 * The job's data, its named fields checked to be strings: the data is read back from Redis, where
 * anyone with access can edit it, and a job left with a bad shape must fail for good (a typed
 * refusal) rather than be retried to the last attempt with a `TypeError`.
 *
 * @example
 * ```ts
 * const { transactionHash } = jobDataOf(job, ['transactionHash']);
 * ```
 */
export function jobDataOf<D extends object>(job: { data: D }, fields: readonly (keyof D)[]): D {
  const data: unknown = job.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new RequestValidationError('Invalid job data', [
      { path: [], message: 'expected an object', code: 'invalid_type' },
    ]);
  }
  for (const field of fields) {
    if (typeof (data as Record<PropertyKey, unknown>)[field] !== 'string') {
      throw new RequestValidationError('Invalid job data', [
        { path: [field], message: 'expected a string', code: 'invalid_type' },
      ]);
    }
  }
  return data as D;
}

/**
 * Refuses a job's `unlessRefunded` that is there but not a boolean (edited in Redis, or a
 * producer's typo such as `'false'`, which would read as true): a refund guard must not be guessed.
 *
 * @example
 * ```ts
 * checkUnlessRefunded({ transactionHash: 'trx_1', unlessRefunded: true });
 * ```
 */
export function checkUnlessRefunded(data: RefundJobData): void {
  const given: unknown = data.unlessRefunded;
  if (given !== undefined && typeof given !== 'boolean') {
    throw new RequestValidationError('Invalid job data', [
      { path: ['unlessRefunded'], message: 'expected a boolean', code: 'invalid_type' },
    ]);
  }
}
