import { hashPathOf } from '../assumption-readers';
import type { OutcomeUnknownError } from '../core/errors';
import type { RequestOptions } from '../core/options';
import { checkPollOptions, type PollOptions, poll, withCallSignal } from '../core/poll';
import type { APIPromise } from '../core/transport/api-promise';
import { route, shownPathParam } from '../core/transport/path';
import {
  type Refund,
  RefundListResponseSchema,
  type RefundRequestParams,
  RefundRequestParamsSchema,
  type RefundStatus,
  RefundStatusSchema,
} from '../schemas/refund';
import { envelopedOrBare } from '../schemas/response-fields';
import {
  checkSince,
  createdSince,
  pollTargetOf,
  type RefundRequestResult,
  type RefundToAwait,
  requestResponseSchema,
  requestResult,
  windowStart,
} from './refund-answers';
import { APIResource } from './resource';

// The status endpoint's shape is not shown (spec §4.2): read from the envelope's `data` (the
// assumption, see assumptions.ts), or bare when the body has no `data`.
const statusAnswerSchema = envelopedOrBare(RefundStatusSchema);

export type {
  RefundAccepted,
  RefundExisting,
  RefundRequestResult,
  RefundToAwait,
} from './refund-answers';

/** Refunds of transactions: request (asynchronous), list, status (spec §4.2, §4.3). */
export class Refunds extends APIResource {
  /**
   * Requests a refund of a transaction: `POST /financial/refund/{transactionHash}`. Asynchronous:
   * HTTP 202 gives `kind: 'accepted'` with the status URL; when a refund is already active the
   * service answers 200 with it, `kind: 'existing'`.
   *
   * Never makes two refunds through its own retries: a repeat is harmless only while the first
   * refund is active, so after an attempt whose answer was lost (a time-out, a reset, a 5xx) it
   * first reads the transaction's refunds ({@link Refunds.findCreatedSince}) and returns the one
   * that attempt created as `kind: 'existing', recovered: true`; it sends the request again only
   * where none was created. When its retries are used up it still reads before giving up, so the
   * refund a last lost attempt made is returned too. With `maxRetries: 0` (retries handled by the
   * caller, as bulk jobs do) the lost attempt's error is thrown as it is and its refund may exist:
   * call `findCreatedSince` with the call's start before requesting again (an abort of the
   * caller's `signal` once the request was out is `OutcomeUnknownError` all the same).
   *
   * @param params All optional: `reason` (max 1000 characters), `observation`, `fraud_confirmed`,
   *   `refund_type`, `cancel_subscription` (service default true), `user_id`.
   * @throws {RequestValidationError} `reason` longer than 1000 characters, or a wrong type.
   * @throws {NotFoundError} the seller has no transaction with that hash (nothing was refunded).
   * @throws {UnprocessableEntityError} the service refused fields (see `fieldErrors`), such as a
   *   `user_id` that names no existing user.
   * @throws {ResponseValidationError} a 202 or a 200 whose body is not in the documented shape
   *   (`status` says which; the message says the call took effect): a 202 accepted the refund all
   *   the same, a 200 named an active one; find it with `findCreatedSince`, never request it
   *   again blindly.
   * @throws {OutcomeUnknownError} an answer was lost and reading the refunds failed too, or the
   *   caller's `signal` aborted the call once a request was out (`cause`: the
   *   `APIUserAbortError`): the refund may have been created; nothing was sent again.
   * @example
   * ```ts
   * const seller = client.forUser(publicToken);
   * const result = await seller.refunds.request('tx_123', { reason: 'Customer asked', cancel_subscription: true });
   * if (result.kind === 'accepted') {
   *   const final = await seller.refunds.waitForCompletion(result);
   * }
   * ```
   */
  request(
    transactionHash: string,
    params: RefundRequestParams = {},
    options?: RequestOptions,
  ): APIPromise<RefundRequestResult> {
    return this._client
      .post(
        route`/financial/refund/${{ transactionHash }}`,
        {
          operation: 'refunds.request',
          params: { value: params, schema: RefundRequestParamsSchema, sendAs: 'json' },
          schema: requestResponseSchema,
          // A repeat is harmless only while the first refund is active, so a lost answer is
          // reconciled first: the refund it created is found, never made a second time.
          replay: 'always',
          reconcile: {
            find: (since, findOptions) =>
              this.findCreatedSince(transactionHash, since, findOptions),
            uncertain: 'the refund may have been created',
          },
        },
        options,
      )
      ._map((body, response) => requestResult(body, response, transactionHash));
  }

  /**
   * Lists the refunds of a transaction: `GET /financial/refund/{transactionHash}`.
   *
   * @throws {NotFoundError} the seller has no transaction with that hash.
   * @example
   * ```ts
   * const refunds = await seller.refunds.list('tx_123');
   * console.log(refunds.map((refund) => refund.status));
   * ```
   */
  list(transactionHash: string, options?: RequestOptions): APIPromise<Refund[]> {
    return this._client.get(
      route`/financial/refund/${{ transactionHash }}`,
      { operation: 'refunds.list', schema: RefundListResponseSchema, uncached: true },
      options,
    );
  }

  /**
   * Finds the refund a request made at or after `since` created, or an active one:
   * `GET /financial/refund/{transactionHash}`. `undefined` means neither exists, so a refund
   * request now creates exactly one. Use it before repeating a request whose outcome you do not
   * know (a crashed job, an {@link OutcomeUnknownError}); `refunds.request` uses it itself.
   *
   * A `Date` `since` is moved to the service's clock (estimated from the answer's `Date` header)
   * and compared with each refund's `created_at` (`DD/MM/YYYY HH:mm:ss`, read in São Paulo time),
   * with a few seconds of slack in favour of "it was created". An answer without a `Date` header
   * leaves the service's clock unknown: then every refund created since `since` less a skew bound
   * (15 minutes) counts. A string `since` is a time the service wrote, such as a webhook event's
   * `created_at`: on the service's clock already, it is compared as it is (with the same slack),
   * so this machine's clock does not matter. A time read on ANOTHER machine's clock (a queue
   * job's enqueue time, a journal written by a run elsewhere) is `{ otherMachine: date }`: that
   * clock is unknown here, so every refund created since it less the skew bound (and the slack)
   * counts, whatever the `Date` header says. The wider window errs one way only: a refund of the
   * transaction made (and no longer active) up to that much before `since` is taken as the lost
   * request's, rather than a second refund made. See `reconciliation` in the client's
   * `assumptions` option. Like every read of a refund's state, it asks any cache between for the
   * service's own answer (`Cache-Control: no-cache`).
   *
   * @param since When the request whose outcome is unknown started: a `Date` (this machine's
   *   clock), a timestamp the service wrote in one of the spec's formats (its clock; one without
   *   an offset read in `reconciliation.timeZone`), or `{ otherMachine: date }` (another
   *   machine's clock, within `reconciliation.maxClockSkewMs` of the service's).
   * @throws {RequestValidationError} `since` is not a valid `Date`, a timestamp in one of the
   *   spec's formats or `{ otherMachine }` holding a valid `Date` (nothing sent).
   * @throws {NotFoundError} the seller has no transaction with that hash.
   * @example
   * ```ts
   * const startedAt = new Date();
   * // … a job crashed after sending a refund request, without its answer …
   * const made = await seller.refunds.findCreatedSince('tx_123', startedAt);
   * if (made === undefined) await seller.refunds.request('tx_123');
   * ```
   */
  findCreatedSince(
    transactionHash: string,
    since: Date | string | { otherMachine: Date },
    options?: RequestOptions,
  ): APIPromise<Refund | undefined> {
    return this._client
      .call(() => {
        checkSince(since, this._client.assumptions.reconciliation.timeZone);
        return {
          operation: 'refunds.findCreatedSince',
          method: 'GET',
          ...route`/financial/refund/${{ transactionHash }}`,
          schema: RefundListResponseSchema,
          uncached: true,
        };
      }, options)
      ._map((body, response) =>
        createdSince(
          body.data,
          windowStart(since, response, this._client.assumptions),
          this._client.assumptions,
        ),
      );
  }

  /**
   * Reads the processing status of a transaction's refund: `GET /financial/refund/{transactionHash}/status`
   * (`requested` and `success` are in progress; `completed` and `failed` are final).
   *
   * @throws {NotFoundError} the transaction has no refund, or the seller no such transaction.
   * @example
   * ```ts
   * const { status } = await seller.refunds.retrieveStatus('tx_123');
   * ```
   */
  retrieveStatus(transactionHash: string, options?: RequestOptions): APIPromise<RefundStatus> {
    const path = hashPathOf(this._client.assumptions.refundStatus.path, '{transactionHash}');
    return this._client.get(
      { path, pathParams: { transactionHash } },
      { operation: 'refunds.retrieveStatus', schema: statusAnswerSchema, uncached: true },
      options,
    );
  }

  /**
   * Waits until a refund reaches a final status and resolves with it: `completed`, or `failed` (a
   * failed refund is an outcome, not an exception: check `status`). Polls
   * `GET /financial/refund/{transactionHash}/status`, or the `statusUrl` of an `accepted` result
   * (credentials go to it only when it is on `baseUrl`'s origin). An `existing` result is waited on
   * the same way: its `requested` and `success` are not final.
   *
   * @param refund A transaction hash, the result of `refunds.request`, or a refund (polled by its `transaction_hash`).
   * @param pollOptions `interval`, `maxInterval`, `timeout`, `signal`, `onStatus` (see {@link PollOptions}).
   * @param options Per-call options for each status request (`headers`, `timeout`, `maxRetries`…);
   *   their `signal` also ends the wait.
   * @throws {RequestValidationError} a poll option out of range (nothing sent).
   * @throws {PollTimeoutError} no final status within `timeout` (default 10 minutes).
   * @throws {APIUserAbortError} `signal` aborted.
   * @throws {NotFoundError} a poll found no refund of that transaction: a poll's error other than
   *   a transient one (retried as any read) ends the wait.
   * @example
   * ```ts
   * const result = await seller.refunds.request('tx_123');
   * const final = await seller.refunds.waitForCompletion(result, {
   *   timeout: 5 * 60_000,
   *   onStatus: (status) => console.log('refund', status),
   * });
   * if (final.status === 'failed') console.log('the refund failed');
   * ```
   */
  waitForCompletion(
    refund: RefundToAwait,
    pollOptions?: PollOptions<RefundStatus>,
    options?: RequestOptions,
  ): Promise<RefundStatus> {
    const target = pollTargetOf(refund);
    const terminal: ReadonlySet<string> = new Set(this._client.assumptions.refundStatus.terminal);
    return poll(
      {
        what: `refund of transaction ${shownPathParam(target.transactionHash)}`,
        fetch: (loop) =>
          target.statusUrl === undefined
            ? this.retrieveStatus(target.transactionHash, { ...options, ...loop }).withResponse()
            : this.#retrieveStatusAt(target.statusUrl, { ...options, ...loop }).withResponse(),
        status: (current) => current.status,
        isDone: (current) => terminal.has(current.status),
        trace: { operation: 'refunds.waitForCompletion', telemetry: this._client.telemetry() },
      },
      withCallSignal(pollOptions, options),
    );
  }

  /**
   * Requests a refund and waits for its final status: `refunds.request` then
   * `refunds.waitForCompletion`. When a refund is already active, waits for that one (nothing new is
   * created). Resolves with `completed` or `failed`.
   *
   * @param params As for `refunds.request`.
   * @param pollOptions As for `refunds.waitForCompletion`; its `signal` also aborts the request.
   * @param options Per-call options for the request and each status request (`headers`,
   *   `timeout`, `maxRetries`…); their `signal` also ends the wait.
   * @throws {RequestValidationError} invalid `params` or `pollOptions` (nothing sent).
   * @throws {PollTimeoutError} no final status within `timeout` (default 10 minutes).
   * @throws {APIUserAbortError} a `signal` aborted before the request was sent, or during the wait.
   * @throws {OutcomeUnknownError} as for `refunds.request`: an answer was lost and reading the
   *   refunds failed too, or a `signal` aborted once the request was out; the refund may exist.
   * @throws {NotFoundError} the seller has no transaction with that hash, as for `refunds.request`.
   * @example
   * ```ts
   * const final = await seller.refunds.requestAndWait('tx_123', { reason: 'Customer asked' });
   * console.log(final.status); // 'completed' or 'failed'
   * ```
   */
  async requestAndWait(
    transactionHash: string,
    params?: RefundRequestParams,
    pollOptions?: PollOptions<RefundStatus>,
    options?: RequestOptions,
  ): Promise<RefundStatus> {
    // A wrong poll option is refused before the refund is requested, not after.
    checkPollOptions(pollOptions);
    const signal = withCallSignal(pollOptions, options)?.signal;
    const result = await this.request(transactionHash, params, { ...options, signal });
    // An existing refund is polled by the transaction hash, known here even if its body omits it.
    return this.waitForCompletion(
      result.kind === 'accepted' ? result : transactionHash,
      pollOptions,
      options,
    );
  }

  #retrieveStatusAt(statusUrl: string, options: RequestOptions): APIPromise<RefundStatus> {
    return this._client.get(
      statusUrl,
      { operation: 'refunds.retrieveStatus', schema: statusAnswerSchema, uncached: true },
      options,
    );
  }
}
