/**
 * Every failure the SDK reports is one of these classes. `instanceof` works across the ESM and CJS
 * copies of the package (a partner's app can load both): each class carries a registered brand and
 * `Symbol.hasInstance` compares brands along the prototype chain instead of object identity.
 *
 * @module
 */

import { redactDeep, redactHeaders, redactText } from './redact';

const BRAND = Symbol.for('partner-sdk.error.brand');

/** Marks `target` with its own brand; subclasses get theirs so a parent never matches a child's check. */
function brand(target: object, name: string): void {
  Object.defineProperty(target, BRAND, { value: `partner-sdk.${name}` });
}

function hasBrand(value: unknown, wanted: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (let proto = Object.getPrototypeOf(value); proto; proto = Object.getPrototypeOf(proto)) {
    const ctor = proto.constructor;
    if (ctor && Object.hasOwn(ctor, BRAND) && ctor[BRAND] === wanted) return true;
  }
  return false;
}

/** One problem found by a zod schema, as kept on validation errors (path and message). */
export interface ValidationIssue {
  /** Where in the value the problem is, e.g. `['phones', 0, 'number']`. */
  readonly path: ReadonlyArray<PropertyKey>;
  /** What is wrong, in words. */
  readonly message: string;
  /** zod's machine-readable code, e.g. `too_big`. */
  readonly code: string;
}

/**
 * Base class of every error the SDK throws.
 *
 * @example
 * ```ts
 * try {
 *   await client.products.retrieve('prd_123');
 * } catch (err) {
 *   if (err instanceof PartnerError) console.error(err.message);
 * }
 * ```
 */
export class PartnerError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(redactText(message), options);
    this.name = new.target.name;
  }
}
// Defined outside the class body: bundlers rewrite `this` inside static methods to the class name,
// which would make every subclass check the base brand.
Object.defineProperty(PartnerError, Symbol.hasInstance, {
  value: function hasInstance(this: object, value: unknown): boolean {
    return hasBrand(value, (this as Record<symbol, unknown>)[BRAND]);
  },
});
brand(PartnerError, 'PartnerError');

/** How a request is named in messages and on errors: its method and the path under `baseUrl`. */
export interface RequestIdentity {
  /** HTTP method, upper case. */
  readonly method: string;
  /** Path relative to `baseUrl` (or the absolute URL for a call outside it), without the query. */
  readonly path: string;
}

/**
 * The service answered with an error status. Subclasses name the status; `status`, `body`,
 * `headers`, `method` and `path` say what happened. `body` is the parsed JSON (or the raw text when
 * it is not JSON), with any secret the service echoed replaced by `[REDACTED]`.
 *
 * @example
 * ```ts
 * try {
 *   await seller.refunds.request('tx_1');
 * } catch (err) {
 *   if (err instanceof APIError) console.log(err.status, err.body);
 * }
 * ```
 */
export class APIError extends PartnerError {
  /** HTTP status code of the response. */
  readonly status: number;
  /** Response body: parsed JSON, or text when it was not JSON; `undefined` when empty. Secrets redacted. */
  readonly body: unknown;
  /** Response headers, with any secret the service echoed in them replaced by `[REDACTED]`. */
  readonly headers: Headers;
  /** HTTP method of the request. */
  readonly method: string;
  /** Path of the request relative to `baseUrl`. */
  readonly path: string;

  constructor(
    request: RequestIdentity,
    status: number,
    body: unknown,
    headers: Headers,
    detail?: string,
  ) {
    super(formatMessage(request, status, body, detail));
    this.status = status;
    this.body = redactDeep(body);
    this.headers = redactHeaders(headers);
    this.method = request.method;
    this.path = request.path;
  }
}
brand(APIError, 'APIError');

/**
 * HTTP 400: the service found the request invalid.
 *
 * @example
 * ```ts
 * if (err instanceof BadRequestError) console.log(err.body);
 * ```
 */
export class BadRequestError extends APIError {}
brand(BadRequestError, 'BadRequestError');

/**
 * HTTP 401: the client token or the seller's public token is missing, invalid or expired. On the
 * root client this often means the endpoint needs a seller: use `client.forUser(publicToken)`.
 *
 * @example
 * ```ts
 * if (err instanceof AuthenticationError) console.log('check credentials:', err.message);
 * ```
 */
export class AuthenticationError extends APIError {}
brand(AuthenticationError, 'AuthenticationError');

/**
 * HTTP 403: refused. The service only accepts calls from IP addresses and domains the partner
 * registered beforehand (spec §5.6), so a 403 usually means this machine's address is not on that list.
 *
 * @example
 * ```ts
 * if (err instanceof PermissionDeniedError) console.log(err.message);
 * ```
 */
export class PermissionDeniedError extends APIError {}
brand(PermissionDeniedError, 'PermissionDeniedError');

/**
 * HTTP 404: the resource (product, offer, refund, export…) does not exist.
 *
 * @example
 * ```ts
 * if (err instanceof NotFoundError) return null;
 * ```
 */
export class NotFoundError extends APIError {}
brand(NotFoundError, 'NotFoundError');

/**
 * HTTP 409: conflicts with the current state. (A running statement export is not thrown: the SDK
 * returns it with `alreadyRunning: true`.)
 *
 * @example
 * ```ts
 * if (err instanceof ConflictError) console.log(err.body);
 * ```
 */
export class ConflictError extends APIError {}
brand(ConflictError, 'ConflictError');

/**
 * HTTP 422: the payload was refused field by field. `fieldErrors` holds the service's messages per
 * field, keyed as the service sent them (dot form: `phones.0.number`).
 *
 * @example
 * ```ts
 * if (err instanceof UnprocessableEntityError) {
 *   for (const [field, messages] of Object.entries(err.fieldErrors)) console.log(field, messages);
 * }
 * ```
 */
export class UnprocessableEntityError extends APIError {
  /** Messages per field from a Laravel-style `{ message, errors }` body; empty when the body had none. */
  readonly fieldErrors: Record<string, string[]>;

  constructor(
    request: RequestIdentity,
    status: number,
    body: unknown,
    headers: Headers,
    detail?: string,
  ) {
    super(request, status, body, headers, detail);
    this.fieldErrors = readFieldErrors(this.body);
  }
}
brand(UnprocessableEntityError, 'UnprocessableEntityError');

/**
 * HTTP 429: too many requests. `retryAfterMs` is the wait the service asked for, when it said.
 *
 * @example
 * ```ts
 * if (err instanceof RateLimitError) await sleep(err.retryAfterMs ?? 1000);
 * ```
 */
export class RateLimitError extends APIError {
  /** Milliseconds the service asked to wait (`Retry-After`), or `undefined` when it did not say. */
  readonly retryAfterMs: number | undefined;

  constructor(
    request: RequestIdentity,
    status: number,
    body: unknown,
    headers: Headers,
    detail?: string,
  ) {
    super(request, status, body, headers, detail);
    this.retryAfterMs = parseRetryAfter(headers.get('retry-after'));
  }
}
brand(RateLimitError, 'RateLimitError');

/**
 * HTTP 500 or above: the service failed. Retried automatically for calls that are safe to repeat.
 *
 * @example
 * ```ts
 * if (err instanceof InternalServerError) console.log('service failed with', err.status);
 * ```
 */
export class InternalServerError extends APIError {}
brand(InternalServerError, 'InternalServerError');

/**
 * No response: the connection was refused, reset, or the name did not resolve. `cause` holds the
 * runtime's own error.
 *
 * @example
 * ```ts
 * if (err instanceof APIConnectionError) console.log('network problem:', err.message);
 * ```
 */
export class APIConnectionError extends PartnerError {
  /** HTTP method of the request. */
  readonly method: string;
  /** Path of the request relative to `baseUrl`. */
  readonly path: string;

  constructor(request: RequestIdentity, message: string, options?: { cause?: unknown }) {
    super(`${request.method} ${request.path} → ${message}`, options);
    this.method = request.method;
    this.path = request.path;
  }
}
brand(APIConnectionError, 'APIConnectionError');

/**
 * The service did not answer within `timeout` (one attempt) or `totalTimeout` (the whole call).
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
  /** Path of the request relative to `baseUrl`. */
  readonly path: string;
  /** The bound that was passed, in bytes. */
  readonly limit: number;

  constructor(request: RequestIdentity, limit: number) {
    super(
      `${request.method} ${request.path} → the response body is larger than maxResponseBytes (${limit} bytes); reading stopped`,
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
  /** Path of the request relative to `baseUrl`. */
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
      `${request.method} ${request.path} → ${uncertain}: the answer was lost (${errorSummary(attemptError)}) and checking failed (${errorSummary(cause)}); not sent again`,
      { cause },
    );
    this.method = request.method;
    this.path = request.path;
    this.since = since;
    this.attemptError = attemptError;
  }
}
brand(OutcomeUnknownError, 'OutcomeUnknownError');

function errorSummary(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

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

  constructor(what: string, issues: ReadonlyArray<ValidationIssue>) {
    super(`${what}: ${describeIssues(issues)}`);
    this.issues = issues;
  }
}
brand(RequestValidationError, 'RequestValidationError');

/**
 * The service answered, but not in the documented shape. `body` keeps what it sent (secrets
 * redacted), so nothing is lost; `issues` says what did not match.
 *
 * @example
 * ```ts
 * if (err instanceof ResponseValidationError) console.log(err.issues, err.body);
 * ```
 */
export class ResponseValidationError extends PartnerError {
  /** What did not match the documented shape. */
  readonly issues: ReadonlyArray<ValidationIssue>;
  /** The body as received (parsed JSON or text), secrets redacted. */
  readonly body: unknown;
  /** HTTP method of the request. */
  readonly method: string;
  /** Path of the request relative to `baseUrl`. */
  readonly path: string;
  /** HTTP status of the response. */
  readonly status: number;

  constructor(
    request: RequestIdentity,
    status: number,
    body: unknown,
    issues: ReadonlyArray<ValidationIssue>,
  ) {
    super(
      `${request.method} ${request.path} → ${status}: unexpected response shape: ${describeIssues(issues)}`,
    );
    this.issues = issues;
    this.body = redactDeep(body);
    this.method = request.method;
    this.path = request.path;
    this.status = status;
  }
}
brand(ResponseValidationError, 'ResponseValidationError');

/**
 * A refund or export did not reach a final state within the poll `timeout`. `lastStatus` is the
 * last status seen (or `undefined` when no poll answered), `waitedMs` how long it waited.
 *
 * @example
 * ```ts
 * try {
 *   await seller.refunds.waitForCompletion('tx_1', { timeout: 60_000 });
 * } catch (err) {
 *   if (err instanceof PollTimeoutError) console.log('still', err.lastStatus, 'after', err.waitedMs);
 * }
 * ```
 */
export class PollTimeoutError extends PartnerError {
  /** The last status value the poll saw, if any. */
  readonly lastStatus: unknown;
  /** How long the wait lasted, in milliseconds. */
  readonly waitedMs: number;

  constructor(what: string, lastStatus: unknown, waitedMs: number) {
    super(
      `${what} did not finish within ${waitedMs} ms (last status: ${describeStatus(lastStatus)})`,
    );
    this.lastStatus = lastStatus;
    this.waitedMs = waitedMs;
  }
}
brand(PollTimeoutError, 'PollTimeoutError');

/** What {@link ExportFailedError} keeps of the export: its hash, status and any other field sent. */
export interface FailedExport {
  /** Export identifier. */
  readonly hash: string;
  /** The failure status the service reported (e.g. `failed`). */
  readonly status?: string | null | undefined;
  /** The download location; never set on a failed export. */
  readonly url?: string | null | undefined;
  readonly [field: string]: unknown;
}

/**
 * A statement export ended in a failure status (`failed` or `error`, see `EXPORT_STATUS` in
 * `assumptions.ts`) while `statements.waitForExport` waited for it. `export` is the export as the
 * service last reported it.
 *
 * @example
 * ```ts
 * try {
 *   await seller.statements.waitForExport(exported);
 * } catch (err) {
 *   if (err instanceof ExportFailedError) console.log(err.export.hash, err.export.status);
 * }
 * ```
 */
export class ExportFailedError extends PartnerError {
  /** The failed export as last reported by the service. */
  readonly export: FailedExport;

  constructor(failed: FailedExport) {
    super(`statement export ${failed.hash} failed (status: ${describeStatus(failed.status)})`);
    this.export = failed;
  }
}
brand(ExportFailedError, 'ExportFailedError');

/**
 * A webhook delivery's body is not a valid event (not JSON, or not the documented envelope).
 *
 * @example
 * ```ts
 * try {
 *   parseWebhookEvent(rawBody);
 * } catch (err) {
 *   if (err instanceof WebhookPayloadError) console.log(err.issues);
 * }
 * ```
 */
export class WebhookPayloadError extends PartnerError {
  /** What did not match the envelope or the event's payload; empty when the body was not JSON. */
  readonly issues: ReadonlyArray<ValidationIssue>;

  constructor(message: string, issues: ReadonlyArray<ValidationIssue> = [], cause?: unknown) {
    super(
      issues.length > 0 ? `${message}: ${describeIssues(issues)}` : message,
      cause === undefined ? undefined : { cause },
    );
    this.issues = issues;
  }
}
brand(WebhookPayloadError, 'WebhookPayloadError');

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * Picks the error class that names `status`.
 *
 * @internal
 */
export function errorClassFor(status: number): typeof APIError {
  switch (status) {
    case 400:
      return BadRequestError;
    case 401:
      return AuthenticationError;
    case 403:
      return PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 422:
      return UnprocessableEntityError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? InternalServerError : APIError;
  }
}

/**
 * Builds the typed error for an HTTP error response. `detail` replaces the body's message when given.
 *
 * @internal
 */
export function makeAPIError(
  request: RequestIdentity,
  status: number,
  body: unknown,
  headers: Headers,
  detail?: string,
): APIError {
  const ErrorClass = errorClassFor(status);
  return new ErrorClass(request, status, body, headers, detail ?? defaultDetail(status, body));
}

function defaultDetail(status: number, body: unknown): string | undefined {
  if (status === 422) return firstFieldError(body);
  if (status === 403) {
    const said = bodyMessage(body);
    return `${said ? `${said} ` : ''}(the service only accepts calls from IP addresses and domains registered for this client beforehand: register this machine's address, spec §5.6)`;
  }
  return undefined;
}

function formatMessage(
  request: RequestIdentity,
  status: number,
  body: unknown,
  detail: string | undefined,
): string {
  const statusText = STATUS_TEXT[status] ?? (status >= 500 ? 'Server Error' : 'HTTP Error');
  const said = detail ?? bodyMessage(body);
  return `${request.method} ${request.path} → ${status} ${statusText}${said ? `: ${said}` : ''}`;
}

/** The human message of an error body: `message` of a JSON body, or the first line of a text one. */
export function bodyMessage(body: unknown): string | undefined {
  if (typeof body === 'string') {
    const text = body.trim();
    if (!text) return undefined;
    if (text.startsWith('<')) return 'the service answered with an HTML page';
    const line = text.split('\n', 1)[0] ?? '';
    return line.length > 300 ? `${line.slice(0, 300)}…` : line;
  }
  if (body && typeof body === 'object') {
    const message = ownField(body, 'message');
    if (typeof message === 'string' && message) return message;
    const error = ownField(body, 'error');
    if (typeof error === 'string' && error) return error;
  }
  return undefined;
}

/** A body's own field, never one inherited through its prototype. */
function ownField(body: object, name: string): unknown {
  return Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}

/**
 * Laravel 8 answers every 422 with the same `The given data was invalid.` and the real messages
 * under `errors`; later versions put the first one on top themselves (`… (and 2 more errors)`).
 * For the former, the first field's message and how many follow, so `err.message` says what is
 * wrong; `undefined` (the body's own message) otherwise.
 */
function firstFieldError(body: unknown): string | undefined {
  if (bodyMessage(body) !== 'The given data was invalid.') return undefined;
  const fieldErrors = Object.entries(readFieldErrors(body)).filter(
    ([, messages]) => messages.length,
  );
  const [field, messages] = fieldErrors[0] ?? [];
  if (field === undefined || messages === undefined) return undefined;
  const more = fieldErrors.reduce((count, [, each]) => count + each.length, 0) - 1;
  return `${field}: ${messages[0]}${more > 0 ? ` (and ${more} more error${more === 1 ? '' : 's'})` : ''}`;
}

function readFieldErrors(body: unknown): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  if (!body || typeof body !== 'object') return result;
  const errors = ownField(body, 'errors');
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return result;
  for (const [field, messages] of Object.entries(errors)) {
    const list = Array.isArray(messages)
      ? messages.map(String)
      : typeof messages === 'string'
        ? [messages]
        : undefined;
    // Defined, not assigned: a field named `__proto__` stays a field.
    if (list) {
      Object.defineProperty(result, field, {
        value: list,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return result;
}

/**
 * Reads `Retry-After` as seconds or an HTTP date; `undefined` when absent or unreadable.
 *
 * @internal
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function describeIssues(issues: ReadonlyArray<ValidationIssue>): string {
  const shown = issues
    .slice(0, 3)
    .map(
      (issue) =>
        `${issue.path.length ? `${issue.path.map(String).join('.')}: ` : ''}${issue.message}`,
    );
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return `${shown.join('; ')}${more}`;
}

function describeStatus(status: unknown): string {
  if (status === undefined) return 'none seen';
  return typeof status === 'string' ? status : JSON.stringify(status);
}
