/**
 * The outcome of each bulk operation by name, so that a partner typing a callback of a job's
 * outcomes imports it from `partner-sdk/bulk` alone, without the result type from the root entry.
 *
 * @module
 */

import type { RefundRequestResult } from '../resources/refunds';
import type { Offer } from '../schemas/offer';
import type { RefundStatus } from '../schemas/refund';
import type { OfferUpdateItem, RefundRequestItem, RefundWaitItem } from './operations';
import type { BulkOutcome } from './types';

/**
 * What one item of `requestRefunds` came to: its `result` (`succeeded`, `existing`) is what
 * `refunds.request` resolved to.
 *
 * @example
 * ```ts
 * const onOutcome = (outcome: RefundOutcome) => {
 *   if (outcome.status === 'failed') console.error(outcome.key, outcome.error);
 * };
 * ```
 */
export type RefundOutcome = BulkOutcome<RefundRequestItem, RefundRequestResult>;

/** What one item of `waitForRefunds` came to: its `result` is the refund's final status. */
export type RefundWaitOutcome = BulkOutcome<RefundWaitItem, RefundStatus>;

/** What one item of `updateOffers` came to: its `result` is the offer as written. */
export type OfferUpdateOutcome = BulkOutcome<OfferUpdateItem, Offer>;
