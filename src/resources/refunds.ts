import * as z from 'zod/mini';
import { REFUND_STATUS } from '../assumptions';
import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/options';
import { encodePathParam, path } from '../core/path';
import { type PollOptions, poll } from '../core/poll';
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

/** What `refunds.waitForCompletion` waits for: a transaction hash, or what `refunds.request` returned. */
export type RefundToAwait = string | RefundRequestResult;

const TERMINAL: ReadonlySet<string> = new Set(REFUND_STATUS.terminal);

const RequestResponseSchema = z.union([RefundAcceptedResponseSchema, RefundExistingResponseSchema]);

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

  /**
   * Waits until a refund reaches a final status and resolves with it: `completed`, or `failed` (a
   * failed refund is an outcome, not an exception: check `status`). Polls
   * `GET /financial/refund/{transactionHash}/status`, or the `statusUrl` of an `accepted` result
   * (credentials go to it only when it is on `baseUrl`'s origin). An `existing` result is waited on
   * the same way: its `requested` and `success` are not final.
   *
   * @param refund A transaction hash, or the result of `refunds.request`.
   * @param pollOptions `interval`, `maxInterval`, `timeout`, `signal`, `onStatus` (see {@link PollOptions}).
   * @throws {PollTimeoutError} no final status within `timeout` (default 10 minutes).
   * @throws {APIUserAbortError} `signal` aborted.
   * @example
   * ```ts
   * const result = await client.refunds.request('tx_123');
   * const final = await client.refunds.waitForCompletion(result, {
   *   timeout: 5 * 60_000,
   *   onStatus: (status) => console.log('refund', status),
   * });
   * if (final.status === 'failed') console.log('the refund failed');
   * ```
   */
  waitForCompletion(
    refund: RefundToAwait,
    pollOptions?: PollOptions<RefundStatus>,
  ): Promise<RefundStatus> {
    const target = pollTargetOf(refund);
    return poll(
      {
        what: `refund of transaction ${target.transactionHash}`,
        fetch: (options) =>
          target.statusUrl === undefined
            ? this.retrieveStatus(target.transactionHash, options).withResponse()
            : this.#retrieveStatusAt(target.statusUrl, options).withResponse(),
        status: (current) => current.status,
        isDone: (current) => TERMINAL.has(current.status),
      },
      pollOptions,
    );
  }

  /**
   * Requests a refund and waits for its final status: `refunds.request` then
   * `refunds.waitForCompletion`. When a refund is already active, waits for that one (nothing new is
   * created). Resolves with `completed` or `failed`.
   *
   * @param params As for `refunds.request`.
   * @param pollOptions As for `refunds.waitForCompletion`; its `signal` also aborts the request.
   * @throws {RequestValidationError} invalid `params` (nothing sent).
   * @throws {PollTimeoutError} no final status within `timeout` (default 10 minutes).
   * @example
   * ```ts
   * const final = await client.refunds.requestAndWait('tx_123', { reason: 'Customer asked' });
   * console.log(final.status); // 'completed' or 'failed'
   * ```
   */
  async requestAndWait(
    transactionHash: string,
    params?: RequestRefundParams,
    pollOptions?: PollOptions<RefundStatus>,
  ): Promise<RefundStatus> {
    const signal = pollOptions?.signal;
    const result = await this.request(transactionHash, params, signal ? { signal } : undefined);
    // An existing refund is polled by the transaction hash, known here even if its body omits it.
    return this.waitForCompletion(
      result.kind === 'accepted' ? result : transactionHash,
      pollOptions,
    );
  }

  #retrieveStatusAt(statusUrl: string, options: RequestOptions): APIPromise<RefundStatus> {
    return this._client
      .call(
        { method: 'GET', path: statusUrl, schema: RefundStatusResponseSchema, replay: 'always' },
        options,
      )
      ._map((body) => body.data);
  }
}

function pollTargetOf(refund: RefundToAwait): {
  transactionHash: string;
  statusUrl: string | undefined;
} {
  if (typeof refund === 'string') return { transactionHash: refund, statusUrl: undefined };
  if (refund?.kind === 'accepted') {
    return { transactionHash: refund.transactionHash, statusUrl: refund.statusUrl };
  }
  if (refund?.kind === 'existing') {
    return { transactionHash: refund.refund.transaction_hash ?? '', statusUrl: undefined };
  }
  return { transactionHash: refund as unknown as string, statusUrl: undefined };
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
