/**
 * The service answered with an error status: {@link APIError} and one class per status the SDK
 * names, and the mapping from a status to its class.
 */

import { redactDeep, redactHeaders } from '../logging/redact';
import { retryAfterOf } from '../retry/retry-after';
import { bodyMessage, firstFieldError, readFieldErrors } from './error-body';
import {
  brand,
  PartnerError,
  type RequestIdentity,
  requestLine,
  statusLine,
} from './partner-error';

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
  /** Path relative to `baseUrl` without the query; outside `baseUrl`, the URL without its query. */
  readonly path: string;

  constructor(
    request: RequestIdentity,
    status: number,
    body: unknown,
    headers: Headers,
    detail?: string,
  ) {
    const said = detail ?? bodyMessage(body);
    super(`${requestLine(request)} → ${statusLine(status)}${said ? `: ${said}` : ''}`);
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
export class BadRequestError extends APIError {
  /** HTTP status code of the response: always 400. */
  declare readonly status: 400;
}
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
export class AuthenticationError extends APIError {
  /** HTTP status code of the response: always 401. */
  declare readonly status: 401;
}
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
export class PermissionDeniedError extends APIError {
  /** HTTP status code of the response: always 403. */
  declare readonly status: 403;
}
brand(PermissionDeniedError, 'PermissionDeniedError');

/**
 * HTTP 404: the resource (product, offer, refund, export…) does not exist.
 *
 * @example
 * ```ts
 * async function productOrNull(productHash: string) {
 *   try {
 *     return await client.products.retrieve(productHash);
 *   } catch (err) {
 *     if (err instanceof NotFoundError) return null;
 *     throw err;
 *   }
 * }
 * ```
 */
export class NotFoundError extends APIError {
  /** HTTP status code of the response: always 404. */
  declare readonly status: 404;
}
brand(NotFoundError, 'NotFoundError');

/**
 * HTTP 409: conflicts with the current state. (A running statement export is not thrown: the SDK
 * returns it with `alreadyRunning: true`; a 409 to an export that carries no export is thrown.)
 *
 * @example
 * ```ts
 * if (err instanceof ConflictError) console.log(err.body);
 * ```
 */
export class ConflictError extends APIError {
  /** HTTP status code of the response: always 409. */
  declare readonly status: 409;
}
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
  /** HTTP status code of the response: always 422. */
  declare readonly status: 422;
  /** Messages per field from a Laravel-style `{ message, errors }` body; empty when the body had none. */
  readonly fieldErrors: Record<string, string[]>;

  constructor(...args: ConstructorParameters<typeof APIError>) {
    super(...args);
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
  /** HTTP status code of the response: always 429. */
  declare readonly status: 429;
  /** Milliseconds the service asked to wait (`Retry-After`), or `undefined` when it did not say. */
  readonly retryAfterMs: number | undefined;

  constructor(...args: ConstructorParameters<typeof APIError>) {
    super(...args);
    this.retryAfterMs = retryAfterOf(args[3]);
  }
}
brand(RateLimitError, 'RateLimitError');

/**
 * HTTP 500 or above: the service failed. Retried automatically for calls that are safe to repeat,
 * unless its `Retry-After` asks for longer than 60 s or than the call has left: then it is thrown
 * at once (never retried before the service allows), with that wait in `retryAfterMs`.
 *
 * @example
 * ```ts
 * if (err instanceof InternalServerError) {
 *   console.log('service failed with', err.status, 'try again in', err.retryAfterMs ?? 'a while');
 * }
 * ```
 */
export class InternalServerError extends APIError {
  /** Milliseconds the service asked to wait (a 503's `Retry-After`), or `undefined` when it did not say. */
  readonly retryAfterMs: number | undefined;

  constructor(...args: ConstructorParameters<typeof APIError>) {
    super(...args);
    this.retryAfterMs = retryAfterOf(args[3]);
  }
}
brand(InternalServerError, 'InternalServerError');

const CLASS_BY_STATUS: Readonly<Record<number, typeof APIError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/**
 * Picks the error class that names `status`.
 *
 * @internal
 */
export function errorClassFor(status: number): typeof APIError {
  return CLASS_BY_STATUS[status] ?? (status >= 500 ? InternalServerError : APIError);
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
  return new ErrorClass(
    request,
    status,
    body,
    headers,
    detail ?? defaultDetail(status, body, request.path),
  );
}

/**
 * The message of a status the body alone does not explain. The registered-origin rule is the
 * service's: a 403 from elsewhere (a file host's expired link, named by its full URL) is not
 * blamed on it.
 */
function defaultDetail(status: number, body: unknown, path: string): string | undefined {
  if (status === 422) return firstFieldError(body);
  if (status === 403 && path.startsWith('/')) {
    const said = bodyMessage(body);
    return `${said ? `${said} ` : ''}(calls are accepted only from the IP addresses and domains registered for this client, spec §5.6)`;
  }
  return undefined;
}
