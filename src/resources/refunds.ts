import { hashPathOf, type ResolvedAssumptions } from '../assumptions';
import { RequestValidationError } from '../core/errors';
import type { RequestOptions } from '../core/options';
import { checkPollOptions, type PollOptions, poll, withCallSignal } from '../core/poll';
import { Recovered, serviceClockOffset } from '../core/retry/reconcile';
import type { APIPromise } from '../core/transport/api-promise';
import { followLocation, isAccepted } from '../core/transport/outcomes';
import { route } from '../core/transport/path';
import {
  type Refund,
  RefundAcceptedResponseSchema,
  RefundExistingResponseSchema,
  RefundListResponseSchema,
  type RefundRequestParams,
  RefundRequestParamsSchema,
  type RefundStatus,
  RefundStatusSchema,
} from '../schemas/refund';
import { envelopedOrBare } from '../schemas/response-fields';
import { parseTimestamp } from '../shared/timestamp';
import { APIResource } from './resource';

// The status endpoint's shape is not shown (spec §4.2): read from the envelope's `data` (the
// assumption, see assumptions.ts), or bare when the body has no `data`.
const statusAnswerSchema = envelopedOrBare(RefundStatusSchema);

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
const requestResponseSchema = (status: number, body: unknown) => {
  if (status !== 202) return RefundExistingResponseSchema;
  const data = typeof body === 'object' && body !== null ? Reflect.get(body, 'data') : undefined;
  return data === undefined || data === null ? undefined : RefundAcceptedResponseSchema;
};

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
   * call `findCreatedSince` with the call's start before requesting again.
   *
   * @param params All optional: `reason` (max 1000 characters), `observation`, `fraud_confirmed`,
   *   `refund_type`, `cancel_subscription` (service default true), `user_id`.
   * @throws {RequestValidationError} `reason` longer than 1000 characters, or a wrong type.
   * @throws {OutcomeUnknownError} an answer was lost and reading the refunds failed too: the refund
   *   may have been created; nothing was sent again.
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
   * @example
   * ```ts
   * const refunds = await seller.refunds.list('tx_123');
   * console.log(refunds.map((refund) => refund.status));
   * ```
   */
  list(transactionHash: string, options?: RequestOptions): APIPromise<Refund[]> {
    return this._client.get(
      route`/financial/refund/${{ transactionHash }}`,
      { operation: 'refunds.list', schema: RefundListResponseSchema },
      options,
    );
  }

  /**
   * Finds the refund a request made at or after `since` created, or an active one:
   * `GET /financial/refund/{transactionHash}`. `undefined` means neither exists, so a refund
   * request now creates exactly one. Use it before repeating a request whose outcome you do not
   * know (a crashed job, an {@link OutcomeUnknownError}); `refunds.request` uses it itself.
   *
   * `since` is read in the service's clock (estimated from the answer's `Date` header) and compared
   * with each refund's `created_at` (`DD/MM/YYYY HH:mm:ss`, read in São Paulo time), with a few
   * seconds of slack in favour of "it was created". An answer without a `Date` header leaves the
   * service's clock unknown: then every refund created since `since` less a skew bound (15 minutes)
   * counts. See `reconciliation` in the client's `assumptions` option.
   *
   * @param since When the request whose outcome is unknown started (this machine's clock).
   * @throws {RequestValidationError} `since` is not a valid `Date` (nothing sent).
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
    since: Date,
    options?: RequestOptions,
  ): APIPromise<Refund | undefined> {
    return this._client
      .call(() => {
        checkSince(since);
        return {
          operation: 'refunds.findCreatedSince',
          method: 'GET',
          ...route`/financial/refund/${{ transactionHash }}`,
          schema: RefundListResponseSchema,
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
   * @example
   * ```ts
   * const { status } = await seller.refunds.retrieveStatus('tx_123');
   * ```
   */
  retrieveStatus(transactionHash: string, options?: RequestOptions): APIPromise<RefundStatus> {
    const path = hashPathOf(this._client.assumptions.refundStatus.path, '{transactionHash}');
    return this._client.get(
      { path, pathParams: { transactionHash } },
      { operation: 'refunds.retrieveStatus', schema: statusAnswerSchema },
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
        what: `refund of transaction ${target.transactionHash}`,
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
      { operation: 'refunds.retrieveStatus', schema: statusAnswerSchema },
      options,
    );
  }
}

/** Checks `since` before anything is sent. */
function checkSince(since: Date): void {
  if (since instanceof Date && !Number.isNaN(since.getTime())) return;
  throw new RequestValidationError('Invalid parameters for refunds.findCreatedSince()', [
    { path: ['since'], message: 'expected a valid Date', code: 'invalid_type' },
  ]);
}

/**
 * Where the search for a lost request's refund starts, in the service's clock (ms): `since` moved
 * by the service's clock as its answer's `Date` header tells, less the margin. Without a readable
 * `Date` the service's clock is unknown and may be behind this machine's: the window widens by the
 * documented bound (`reconciliation.maxClockSkewMs`), so that the lost refund cannot be missed and
 * sent a second time.
 */
function windowStart(
  since: Date,
  response: Response,
  { reconciliation }: ResolvedAssumptions,
): number {
  const offset = serviceClockOffset(response) ?? -reconciliation.maxClockSkewMs;
  return since.getTime() + offset - reconciliation.marginMs;
}

/**
 * The active refund, else the newest created at or after `from` (ms, service clock); a
 * `created_at` that cannot be read counts as recent (`reconciliation` of the client's assumptions:
 * the zone of `created_at`).
 */
function createdSince(
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

function createdAt(refund: Refund, timeZone: string): number {
  try {
    return parseTimestamp(refund.created_at ?? '', { timeZone }).getTime();
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function pollTargetOf(refund: RefundToAwait): {
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
function requestResult(
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
