/**
 * The bulk operations partners batch: refund requests, refund waits and offer updates, each a
 * `BulkOperation` run by {@link runBulk}.
 *
 * Items may carry the seller's public token (`sellerToken`): the job then calls through
 * `client.forUser(sellerToken)`, so one job can cover many sellers. Without it, the job's own
 * client is used (a seller client from `forUser`, or the root client). The token never reaches the
 * journal, outcomes' `key`, or logs.
 *
 * @module
 */

import type { RequestOptions } from '../core/options';
import { checkPollOptions } from '../core/poll';
import { encodePathParam } from '../core/transport/path';
import { checkParams } from '../core/validation';
import type { RefundRequestResult } from '../resources/refunds';
import { type OfferUpdateParams, OfferUpdateParamsSchema } from '../schemas/offer';
import {
  type RefundRequestParams,
  RefundRequestParamsSchema,
  type RefundStatus,
} from '../schemas/refund';
import { alreadyRefunded } from './already-refunded';
import {
  type BulkClient,
  checkBulkClient,
  checkSellerToken,
  hashOf,
  onClientTelemetry,
  sellerClients,
  tokenOf,
} from './bulk-client';
import { BULK_OPTIONS, checkBulkOptionsShape } from './options-shape';
import { runBulk } from './run-bulk';
import type { BulkItems, BulkJob, BulkOptions, WaitForRefundsOptions } from './types';

/** A refund to request: a transaction hash, or the hash with its parameters and seller. */
export type RefundRequestItem =
  | string
  | {
      /** The transaction to refund (the item's key). */
      transactionHash: string;
      /** As for `refunds.request`; the job's `params` option when absent. */
      params?: RefundRequestParams;
      /** The seller's public token, when the job's client is not already that seller's. */
      sellerToken?: string;
    };

/** A refund to wait for: a transaction hash, or the hash with its seller. */
export type RefundWaitItem =
  | string
  | {
      /** The transaction whose refund to wait for (the item's key). */
      transactionHash: string;
      /** The seller's public token, when the job's client is not already that seller's. */
      sellerToken?: string;
    };

/** An offer update: which offer, and its new settings (as for `offers.update`). */
export interface OfferUpdateItem {
  /** Product hash. */
  productHash: string;
  /** Offer code. The item's key is `productHash/offerCode`. */
  offerCode: string;
  /** The settings to write. */
  params: OfferUpdateParams;
  /** The seller's public token, when the job's client is not already that seller's. */
  sellerToken?: string;
}

/** Options of {@link requestRefunds}. */
export interface RequestRefundsOptions extends BulkOptions {
  /** Parameters for every item that carries none of its own (`reason`, `observation`…). */
  params?: RefundRequestParams | undefined;
  /**
   * Reads each transaction's refunds first and fails an item already refunded (a `completed`
   * refund, none active) with `AlreadyRefundedError`, sending nothing for it: a job run
   * again without its journal would otherwise refund those transactions twice, as the service
   * makes a new refund once the first completed (spec §3). A failed refund does not count. One
   * read more per item, against the same rate limit: the job paces it as a request of its own.
   * Default `false`: every item is requested, as `refunds.request` does.
   */
  unlessRefunded?: boolean | undefined;
}

const REQUEST_REFUNDS_OPTIONS = [
  ...BULK_OPTIONS,
  ...Object.keys({ params: true, unlessRefunded: true } satisfies Record<
    Exclude<keyof RequestRefundsOptions, keyof BulkOptions>,
    true
  >),
];

/**
 * Requests a refund of each transaction: `refunds.request` per item, as a bulk job. Outcomes:
 * `succeeded` (a refund was accepted, HTTP 202; or, after a crash, found made by the lost
 * request), `existing` (an active refund was already there, HTTP 200: none created), `failed`.
 *
 * Never refunds twice: with a `journal`, an item whose request may have reached the service
 * (intent recorded, no outcome) is reconciled first with `refunds.findCreatedSince` (from the
 * intent's time): a refund found is the outcome; only when none was made is the request sent. The
 * job's own retries (after a lost answer or a 503) reconcile the same way.
 *
 * @param client The root client (items then carry `sellerToken`) or a seller client.
 * @param items Transaction hashes, or `{ transactionHash, params?, sellerToken? }`, in an array or
 *   any (async) iterable.
 * @throws {RequestValidationError} `client` is no client, or an option is invalid or unknown (at
 *   once, nothing sent).
 * @example
 * ```ts
 * import { FileJournal, requestRefunds } from 'partner-sdk/bulk';
 *
 * const store = await FileJournal.open('cohort.journal.jsonl');
 * const job = requestRefunds(client.forUser(sellerToken), hashes, {
 *   params: { reason: 'Cohort cancelled' },
 *   journal: { store, job: 'cohort-2026-11' },
 *   onProgress: (p) => console.log(`${p.done}/${p.total} · ${p.ratePerSecond.toFixed(0)}/s`),
 * });
 * for await (const outcome of job) {
 *   if (outcome.status === 'failed') console.error(outcome.key, outcome.error);
 * }
 * const summary = await job; // { succeeded, existing, failed, skipped, … }
 * await store.close();
 * ```
 */
export function requestRefunds(
  client: BulkClient,
  items: BulkItems<RefundRequestItem>,
  options: RequestRefundsOptions = {},
): BulkJob<RefundRequestItem, RefundRequestResult> {
  checkBulkClient(client);
  checkBulkOptionsShape(options, REQUEST_REFUNDS_OPTIONS);
  const { params, unlessRefunded, ...bulk } = options;
  const clientFor = sellerClients(client);
  const paramsOf = (item: RefundRequestItem) =>
    (typeof item === 'object' ? item.params : undefined) ?? params ?? {};
  return runBulk(
    items,
    {
      key: hashOf,
      validate: (item) => {
        encodePathParam('transactionHash', hashOf(item));
        checkParams(RefundRequestParamsSchema, paramsOf(item), 'refunds.request');
        checkSellerToken(item, clientFor);
      },
      // The read is a request of its own: the job gives it its own slot of the pace.
      check: unlessRefunded
        ? (item, callOptions) =>
            alreadyRefunded(clientFor(tokenOf(item)), hashOf(item), callOptions)
        : undefined,
      run: (item, callOptions) =>
        clientFor(tokenOf(item)).refunds.request(hashOf(item), paramsOf(item), callOptions),
      reconcile: async (item, since, callOptions) => {
        const { refunds } = clientFor(tokenOf(item));
        const refund = await refunds.findCreatedSince(hashOf(item), since, callOptions);
        return refund && { kind: 'existing', refund, recovered: true };
      },
      existed: (result) => result.kind === 'existing' && !result.recovered,
      describe: (result) =>
        result.kind === 'accepted'
          ? { kind: 'accepted' }
          : { kind: 'existing', refund: result.refund.hash, status: result.refund.status },
    },
    onClientTelemetry(client, bulk),
  );
}

const WAIT_FOR_REFUNDS_OPTIONS = [
  ...BULK_OPTIONS,
  ...Object.keys({ pollOptions: true } satisfies Record<
    Exclude<keyof WaitForRefundsOptions, keyof BulkOptions>,
    true
  >),
];

/**
 * Waits for each transaction's refund to reach a final status (`refunds.waitForCompletion` per
 * item), many at once. Each outcome's `result` is the final `RefundStatus`: `completed`, or
 * `failed` (a failed refund is an outcome of the wait, so it counts as `succeeded` here: check
 * `result.status`). Waiting is read-only, so a resumed job simply waits again.
 *
 * @param items Transaction hashes, or `{ transactionHash, sellerToken? }`.
 * @throws {RequestValidationError} `client` is no client, or an option is invalid or unknown (at
 *   once, nothing sent).
 * @example
 * ```ts
 * import { waitForRefunds } from 'partner-sdk/bulk';
 *
 * for await (const outcome of waitForRefunds(seller, hashes, { concurrency: 16 })) {
 *   if (outcome.status === 'succeeded') console.log(outcome.key, outcome.result.status);
 * }
 * ```
 */
export function waitForRefunds(
  client: BulkClient,
  items: BulkItems<RefundWaitItem>,
  options: WaitForRefundsOptions = {},
): BulkJob<RefundWaitItem, RefundStatus> {
  checkBulkClient(client);
  checkBulkOptionsShape(options, WAIT_FOR_REFUNDS_OPTIONS);
  const { pollOptions, ...bulk } = options;
  // Once for the job: each wait would otherwise fail its item with the same refusal.
  checkPollOptions(pollOptions);
  const clientFor = sellerClients(client);
  return runBulk(
    items,
    {
      key: hashOf,
      validate: (item) => {
        encodePathParam('transactionHash', hashOf(item));
        checkSellerToken(item, clientFor);
      },
      run: (item, requestOptions: RequestOptions) =>
        clientFor(tokenOf(item)).refunds.waitForCompletion(hashOf(item), {
          ...pollOptions,
          signal: requestOptions.signal,
        }),
      replaySafe: true,
      describe: (result) => ({ status: result.status, refund: result.hash }),
    },
    onClientTelemetry(client, { ...bulk, concurrency: bulk.concurrency ?? 8 }),
  );
}

/**
 * Updates many offers (`offers.update` per item): a catalogue repricing as one job. A PUT is
 * idempotent, so an item in doubt after a crash is simply sent again. Outcomes are `succeeded`
 * (with the `Offer` answered) or `failed`.
 *
 * @param items `{ productHash, offerCode, params, sellerToken? }`; the key is `productHash/offerCode`.
 * @throws {RequestValidationError} `client` is no client, or an option is invalid or unknown (at
 *   once, nothing sent).
 * @example
 * ```ts
 * import { updateOffers } from 'partner-sdk/bulk';
 *
 * const summary = await updateOffers(seller, [
 *   { productHash: 'prd_1', offerCode: 'off_1', params: { price: 4_990 } },
 *   { productHash: 'prd_2', offerCode: 'off_9', params: { price: 9_990 } },
 * ]);
 * console.log(summary.succeeded, summary.failed);
 * ```
 */
export function updateOffers(
  client: BulkClient,
  items: BulkItems<OfferUpdateItem>,
  options: BulkOptions = {},
): BulkJob<OfferUpdateItem, Awaited<ReturnType<BulkClient['offers']['update']>>> {
  checkBulkClient(client);
  checkBulkOptionsShape(options);
  const clientFor = sellerClients(client);
  return runBulk(
    items,
    {
      key: (item) => `${item?.productHash}/${item?.offerCode}`,
      validate: (item) => {
        encodePathParam('productHash', item.productHash);
        encodePathParam('offerCode', item.offerCode);
        checkParams(OfferUpdateParamsSchema, item.params, 'offers.update');
        checkSellerToken(item, clientFor);
      },
      run: (item, requestOptions) =>
        clientFor(item.sellerToken).offers.update(
          item.productHash,
          item.offerCode,
          item.params,
          requestOptions,
        ),
      replaySafe: true,
      describe: (offer) => ({ price: offer.price }),
    },
    onClientTelemetry(client, options),
  );
}
