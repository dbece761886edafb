/**
 * What `runBulk` does with each item ({@link BulkOperation}): its key, its request, and what
 * settles a doubt, checks it before sending, or summarises its result.
 *
 * @module
 */

import type { RequestOptions } from '../core/options';

/**
 * What `runBulk` does with each item: the general form behind `requestRefunds`, `updateOffers` and
 * `waitForRefunds`.
 */
export interface BulkOperation<I, R> {
  /**
   * The item's identity in the journal and in outcomes (unique within a job).
   *
   * @example
   * ```ts
   * key: (item) => `${item.productHash}/${item.offerCode}`,
   * ```
   */
  key: (item: I) => string;
  /**
   * Does the item's work. Pass `options` on to the SDK call: they carry the job's signal and
   * `maxRetries: 0`, so 429 and 503 come back to the job, which pauses every worker and retries.
   *
   * @example
   * ```ts
   * run: (hash, options) => seller.refunds.request(hash, {}, options),
   * ```
   */
  run: (item: I, options: RequestOptions) => PromiseLike<R>;
  /**
   * Whether a result means "already existed" rather than "done now". Default: never.
   *
   * @example
   * ```ts
   * existed: (result) => result.kind === 'existing',
   * ```
   */
  existed?: (result: R) => boolean;
  /**
   * Finds what an earlier request of this item did, when it may have reached the service without
   * its answer being recorded (`since`: when that request was about to be sent). Resolves with the
   * result it produced, or `undefined` when it produced nothing (the item is then sent again).
   * `since` is a `Date` of this machine's clock when this run sent that request, and
   * `{ otherMachine: date }` when an earlier run did (read from its journal record, written on the
   * clock of whichever machine ran it): `refunds.findCreatedSince` takes either as it is, and
   * searches from the second less the client's `reconciliation.maxClockSkewMs`.
   *
   * @example
   * ```ts
   * reconcile: async (hash, since, options) => {
   *   const refund = await seller.refunds.findCreatedSince(hash, since, options);
   *   return refund && { kind: 'existing', refund };
   * },
   * ```
   */
  reconcile?: (
    item: I,
    since: Date | { otherMachine: Date },
    options: RequestOptions,
  ) => PromiseLike<R | undefined>;
  /**
   * Whether sending an item twice is harmless (a PUT, a read). An item in doubt is then simply
   * sent again; without `reconcile` and without this, it fails with `inDoubt` rather than risk a
   * duplicate.
   */
  replaySafe?: boolean;
  /**
   * A read that decides, before the item is first sent, whether to send it: resolves with the
   * error to fail the item with (nothing sent), or `undefined` to send it. It is a request of its
   * own, in a slot of the job's pace of its own (the service counts it against the same limit):
   * a 429 or 503 on it is heard by the pace and the item is read again after `Retry-After`; a
   * failure of the read never puts the item in doubt. Made once per item: a send repeated after
   * a failed try is not read again. `requestRefunds`' `unlessRefunded` is one.
   *
   * @example
   * ```ts
   * check: async (hash, options) => {
   *   const refunds = await seller.refunds.list(hash, options);
   *   return refunds.length > 0 ? new Error(`${hash} has refunds already`) : undefined;
   * },
   * ```
   */
  check?: (item: I, options: RequestOptions) => PromiseLike<Error | undefined>;
  /**
   * Checks an item before anything is sent: what it throws (a `RequestValidationError`, or any
   * error) fails the item, and nothing is sent for it. Dry runs call it too.
   *
   * @example
   * ```ts
   * validate: (item) => { if (item.params.price === undefined) throw new Error('no price to set'); },
   * ```
   */
  validate?: (item: I) => void;
  /**
   * A small JSON summary of a result for the journal (ids, statuses; never secrets).
   *
   * @example
   * ```ts
   * describe: (offer) => ({ price: offer.price }),
   * ```
   */
  describe?: (result: R) => Record<string, unknown>;
}
