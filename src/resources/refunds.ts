import * as z from 'zod/mini';
import { REFUND_STATUS } from '../assumptions';
import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/options';
import { encodePathParam, path } from '../core/path';
import { checkParams } from '../core/validate';
import {
  type Refund,
  RefundAcceptedResponseSchema,
  RefundExistingResponseSchema,
  RefundListResponseSchema,
  type RefundStatus,
  RefundStatusResponseSchema,
  type RequestRefundParams,
  RequestRefundParamsSchema,
} from '../schemas/refund';
import { APIResource } from './resource';

/**
 * What `refunds.request` returns: the refund was `accepted` for asynchronous processing (HTTP 202),
 * or an active refund already `existing` for the transaction was returned instead (HTTP 200, no
 * new refund created). Narrow on `kind`.
 *
 * @example
 * ```ts
 * const result = await client.refunds.request('tx_123');
 * if (result.kind === 'accepted') console.log('poll', result.statusUrl);
 * else console.log('already', result.refund.status);
 * ```
 */
export type RefundRequestResult =
  | {
      /** HTTP 202: the refund is being processed. */
      kind: 'accepted';
      /** The refunded transaction. */
      transactionHash: string;
      /** The status endpoint from the `Location` header, when the service sent one. */
      statusUrl: string | undefined;
    }
  | {
      /** HTTP 200: a refund `requested` or `success` already exists; none was created. */
      kind: 'existing';
      /** The active refund. */
      refund: Refund;
    };

// The 202 body carries only `data.transaction_hash`. A body whose `data` has a refund `hash` is the
// 200's existing refund and must pass as one: tried first, and kept out of the looser 202 shape, so
// a wrong-typed refund field is an error instead of slipping through as "accepted".
const RequestResponseSchema = z.union([
  RefundExistingResponseSchema,
  RefundAcceptedResponseSchema.check(
    z.refine(
      (body) => !(typeof body.data === 'object' && body.data !== null && 'hash' in body.data),
    ),
  ),
]);

/** Refunds of transactions: request (asynchronous), list, status (spec §4.2, §4.3). */
export class Refunds extends APIResource {
  /**
   * Requests a refund of a transaction: `POST /financial/refund/{transactionHash}`. Asynchronous:
   * HTTP 202 gives `kind: 'accepted'` with the status URL; when a refund is already active the
   * service answers 200 with it, `kind: 'existing'`. Safe to retry for that reason.
   *
   * @param params All optional: `reason` (max 1000 characters), `observation`, `fraud_confirmed`,
   *   `refund_type`, `cancel_subscription` (service default true), `user_id`.
   * @throws {RequestValidationError} `reason` longer than 1000 characters, or a wrong type.
   * @example
   * ```ts
   * const result = await client.refunds.request('tx_123', { reason: 'Customer asked', cancel_subscription: true });
   * if (result.kind === 'accepted') {
   *   const final = await client.refunds.waitForCompletion(result);
   * }
   * ```
   */
  request(
    transactionHash: string,
    params: RequestRefundParams = {},
    options?: RequestOptions,
  ): APIPromise<RefundRequestResult> {
    return this._client
      .call(
        () => ({
          method: 'POST',
          path: path`/financial/refund/${{ transactionHash }}`,
          json: checkParams(RequestRefundParamsSchema, params, 'refunds.request'),
          schema: RequestResponseSchema,
          replay: 'always',
        }),
        options,
      )
      ._map((body, response): RefundRequestResult => {
        if (response.status === 202) {
          const data = body.data as { transaction_hash?: string | null };
          return {
            kind: 'accepted',
            transactionHash: data?.transaction_hash ?? transactionHash,
            statusUrl: absoluteLocation(response),
          };
        }
        return { kind: 'existing', refund: body.data as Refund };
      });
  }

  /**
   * Lists the refunds of a transaction: `GET /financial/refund/{transactionHash}`.
   *
   * @example
   * ```ts
   * const refunds = await client.refunds.list('tx_123');
   * console.log(refunds.map((refund) => refund.status));
   * ```
   */
  list(transactionHash: string, options?: RequestOptions): APIPromise<Refund[]> {
    return this._client
      .call(
        () => ({
          method: 'GET',
          path: path`/financial/refund/${{ transactionHash }}`,
          schema: RefundListResponseSchema,
          replay: 'always',
        }),
        options,
      )
      ._map((body) => body.data);
  }

  /**
   * Reads the processing status of a transaction's refund: `GET /financial/refund/{transactionHash}/status`
   * (`requested` and `success` are in progress; `completed` and `failed` are final).
   *
   * @example
   * ```ts
   * const { status } = await client.refunds.retrieveStatus('tx_123');
   * ```
   */
  retrieveStatus(transactionHash: string, options?: RequestOptions): APIPromise<RefundStatus> {
    return this._client
      .call(
        () => ({
          method: 'GET',
          path: REFUND_STATUS.path(encodePathParam('transactionHash', transactionHash)),
          schema: RefundStatusResponseSchema,
          replay: 'always',
        }),
        options,
      )
      ._map((body) => body.data);
  }
}

/** The `Location` header resolved against the response URL (it may be relative). */
function absoluteLocation(response: Response): string | undefined {
  const location = response.headers.get('location');
  if (!location) return undefined;
  try {
    return new URL(location, response.url || undefined).href;
  } catch {
    return location;
  }
}
