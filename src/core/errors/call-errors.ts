/**
 * Failures of a call other than an error status: no answer in time, a bad answer or bad input, an
 * abort, an unknown outcome. The waits, exports and webhook deliveries that fail are in
 * `wait-errors.ts`.
 */

import { redactDeep, redactText } from '../logging/redact';
import { describeMismatch } from './error-body';
import {
  brand,
  describeIssues,
  errorSummary,
  PartnerError,
  type RequestIdentity,
  requestLine,
  statusLine,
  type ValidationIssue,
} from './partner-error';

/**
 * No response: the connection was refused or reset, the name did not resolve; or the answer came
 * and its body broke off or did not decode as its `Content-Encoding` says, when `status` says what
 * the service answered (a 2xx: it acted on the call) and `body` keeps what could be read. `cause`
 * holds the runtime's own error.
 *
 * @example
 * ```ts
 * if (err instanceof APIConnectionError) console.log('network problem:', err.message);
 * ```
 */
export class APIConnectionError extends PartnerError {
  /** HTTP method of the request. */
  readonly method: string;
  /** Path relative to `baseUrl` without the query; outside `baseUrl`, the URL without its query. */
  readonly path: string;
  /**
   * The status the service answered with, when its answer came and its body was then spoilt on
   * its way; `undefined` when no answer came (a 2xx here means the service acted on the call).
   */
  readonly status: number | undefined;
  /** What could be read of that spoilt body (text, secrets redacted); `undefined` without an answer. */
  readonly body: string | undefined;

  constructor(
    request: RequestIdentity,
    message: string,
    options?: { cause?: unknown; answer?: { status: number; body: string } },
  ) {
    super(`${requestLine(request)} → ${message}`, options);
    this.method = request.method;
    this.path = request.path;
    this.status = options?.answer?.status;
    this.body = options?.answer && redactText(options.answer.body);
  }
}
brand(APIConnectionError, 'APIConnectionError');

/**
 * The service did not answer within `timeout` (one attempt) or `totalTimeout` (the whole call);
 * also a call that a client's shared `pace` gave no request slot before its `totalTimeout` (a
 * long pause after a 429), when nothing was sent.
 *
 * @example
 * ```ts
 * if (err instanceof APIConnectionTimeoutError) console.log('too slow:', err.message);
 * ```
 */
export class APIConnectionTimeoutError extends APIConnectionError {}
brand(APIConnectionTimeoutError, 'APIConnectionTimeoutError');

/**
 * The response body grew past `maxResponseBytes` (counted after decompression, while reading): the
 * SDK stopped reading and cancelled it. Not retried, since a repeat would be as large. Raise the
 * bound per call (`{ maxResponseBytes }`) if such a body is expected.
 *
 * @example
 * ```ts
 * try {
 *   await client.products.list({ per_page: 50 }, { maxResponseBytes: 1024 * 1024 });
 * } catch (err) {
 *   if (err instanceof ResponseTooLargeError) console.log('over', err.limit, 'bytes');
 * }
 * ```
 */
export class ResponseTooLargeError extends PartnerError {
  /** HTTP method of the request. */
  readonly method: string;
  /** Path relative to `baseUrl` without the query; outside `baseUrl`, the URL without its query. */
  readonly path: string;
  /** The bound that was passed, in bytes. */
  readonly limit: number;

  constructor(request: RequestIdentity, limit: number) {
    super(
      `${requestLine(request)} → the response body exceeds maxResponseBytes (${limit} bytes); reading stopped`,
    );
    this.method = request.method;
    this.path = request.path;
    this.limit = limit;
  }
}
brand(ResponseTooLargeError, 'ResponseTooLargeError');

/**
 * A call that may already have acted on the service lost its answer (a time-out, a reset, a 5xx),
 * and the check of whether it did (for a refund request: reading the transaction's refunds) failed
 * too. The SDK did not send it again, since a blind repeat could act twice: find out before
 * repeating it (for a refund, `refunds.findCreatedSince(transactionHash, since)`). `cause` is the
 * check's failure, `attemptError` the lost attempt's, `since` when the call started.
 *
 * @example
 * ```ts
 * try {
 *   await seller.refunds.request('tx_1');
 * } catch (err) {
 *   if (err instanceof OutcomeUnknownError) {
 *     const made = await seller.refunds.findCreatedSince('tx_1', err.since);
 *     if (made === undefined) await seller.refunds.request('tx_1');
 *   }
 * }
 * ```
 */
export class OutcomeUnknownError extends PartnerError {
  /** HTTP method of the request. */
  readonly method: string;
  /** Path relative to `baseUrl` without the query; outside `baseUrl`, the URL without its query. */
  readonly path: string;
  /** When the call started (this machine's clock): anything it did happened after this. */
  readonly since: Date;
  /** Why the attempt's answer was lost. */
  readonly attemptError: unknown;

  constructor(
    request: RequestIdentity,
    uncertain: string,
    since: Date,
    attemptError: unknown,
    cause: unknown,
  ) {
    super(
      `${requestLine(request)} → ${uncertain}: the answer was lost (${errorSummary(attemptError)}) and checking failed (${errorSummary(cause)}); not sent again`,
      { cause },
    );
    this.method = request.method;
    this.path = request.path;
    this.since = since;
    this.attemptError = attemptError;
  }
}
brand(OutcomeUnknownError, 'OutcomeUnknownError');

/**
 * The caller aborted the call through its `signal`. `cause` is the signal's reason.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const call = client.products.list({}, { signal: controller.signal });
 * controller.abort();
 * await call.catch((err) => err instanceof APIUserAbortError); // true
 * ```
 */
export class APIUserAbortError extends PartnerError {}
brand(APIUserAbortError, 'APIUserAbortError');

/**
 * A parameter failed the SDK's own check of the documented rules: nothing was sent. `issues` says
 * which fields and why.
 *
 * @example
 * ```ts
 * try {
 *   await seller.refunds.request('tx_1', { reason: 'x'.repeat(1001) });
 * } catch (err) {
 *   if (err instanceof RequestValidationError) console.log(err.issues[0]?.path); // ['reason']
 * }
 * ```
 */
export class RequestValidationError extends PartnerError {
  /** The problems found, one per field rule broken. */
  readonly issues: ReadonlyArray<ValidationIssue>;

  constructor(what: string, issues: ReadonlyArray<ValidationIssue>, options?: { cause?: unknown }) {
    super(`${what}: ${describeIssues(issues)}`, options);
    this.issues = issues;
  }
}
brand(RequestValidationError, 'RequestValidationError');

/**
 * The service answered, but not in the documented shape. `body` keeps what it sent (secrets
 * redacted), so nothing is lost; `issues` says what did not match. A success status (2xx) to a call
 * that acts (anything but a read) means the service acted on it: `tookEffect` is `true` and the
 * message says the call took effect, so that nobody repeats it as a retry, and the client never does.
 *
 * @example
 * ```ts
 * if (err instanceof ResponseValidationError) {
 *   console.log(err.issues, err.body);
 *   if (err.tookEffect) console.log('done: do not send it again');
 * }
 * ```
 */
export class ResponseValidationError extends PartnerError {
  /** What did not match the documented shape. */
  readonly issues: ReadonlyArray<ValidationIssue>;
  /** The body as received (parsed JSON or text), secrets redacted. */
  readonly body: unknown;
  /** HTTP method of the request. */
  readonly method: string;
  /** Path relative to `baseUrl` without the query; outside `baseUrl`, the URL without its query. */
  readonly path: string;
  /** HTTP status of the response. */
  readonly status: number;
  /**
   * Whether the service acted on the call all the same: a success status (2xx) to a call that
   * acts (anything but a read). `true` means the refund, update or export was made: never send it
   * again as a retry. `false` for a read, or for an answer that is no success.
   */
  readonly tookEffect: boolean;

  constructor(
    request: RequestIdentity,
    status: number,
    body: unknown,
    issues: ReadonlyArray<ValidationIssue>,
    /** Whether the service acted on the call (a 2xx to one that acts): the message then says so. */
    tookEffect = false,
  ) {
    const effect = tookEffect
      ? '; the call took effect all the same: do not repeat it as a retry'
      : '';
    super(
      `${requestLine(request)} → ${statusLine(status)}: unexpected response shape: ${describeMismatch(body, issues)}${effect}`,
    );
    this.issues = issues;
    this.body = redactDeep(body);
    this.method = request.method;
    this.path = request.path;
    this.status = status;
    this.tookEffect = tookEffect;
  }
}
brand(ResponseValidationError, 'ResponseValidationError');
