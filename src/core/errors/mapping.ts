/**
 * Every failure of a call mapped to the SDK's error classes: an error status to the class that
 * names the status, time-outs, aborts, oversized bodies and connection failures to theirs, and a
 * refused token to a 401 that says which one.
 */

import { isNetworkError, isTimeoutError } from 'ky';
import { causeChain } from '../../shared/cause-chain';
import { redactDeep, redactText } from '../logging/redact';
import { errorCode } from '../retry/classify';
import { PaceTimeout } from '../transport/attempts';
import {
  BodyBroken,
  BodyCompressedCut,
  BodyTimeout,
  BodyTooLarge,
  BodyUndecodable,
} from '../transport/body';
import { ErrorStatus } from '../transport/error-status';
import { bodyMessage } from './error-body';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type APIError,
  APIUserAbortError,
  makeAPIError,
  PartnerError,
  type RequestIdentity,
  RequestValidationError,
  ResponseTooLargeError,
} from './index';
import { errorSummary, requestLine, statusLine } from './partner-error';

/** The time-outs a call runs under (as set for it), for the time-out error's message. */
export interface Limits {
  timeout: number;
  totalTimeout: number;
}

/** The SDK's error for `error`, the failure of a call named `identity`; a `PartnerError` stays. */
export function toPartnerError(
  error: unknown,
  identity: RequestIdentity,
  signal: AbortSignal | undefined,
  limits: Limits,
): unknown {
  if (error instanceof PartnerError) return error;
  if (error instanceof ErrorStatus) {
    return makeAPIError(identity, error.response.status, error.body, error.response.headers);
  }
  if (signal?.aborted) {
    return new APIUserAbortError(`${requestLine(identity)} was aborted by the caller.`, {
      cause: signal.reason,
    });
  }
  if (error instanceof BodyTooLarge) return new ResponseTooLargeError(identity, error.limit);
  if (error instanceof PaceTimeout) {
    return new APIConnectionTimeoutError(
      identity,
      `no request slot from the client's pace in time (${limits.totalTimeout} ms for the call)`,
    );
  }
  if (isTimeoutError(error) || error instanceof BodyTimeout) {
    return new APIConnectionTimeoutError(
      identity,
      `no complete response in time (timeout ${limits.timeout} ms per attempt, ${limits.totalTimeout} ms for the call)`,
    );
  }
  if (error instanceof BodyBroken) return spoiltAnswer(error, identity);
  // Of a network failure, keep the runtime's error (ECONNREFUSED, ECONNRESET…), never ky's, which
  // holds the request headers.
  const network = isNetworkError(error);
  const cause = network ? error.cause : error;
  return new APIConnectionError(
    identity,
    `${network ? 'connection' : 'request'} failed: ${describeCause(cause)}`,
    { cause: redactedCause(cause) },
  );
}

/**
 * An answer whose body broke off or did not decode: its status leads the message, so a 2xx never
 * reads as a request that went nowhere, and the error keeps what could be read of the body.
 */
function spoiltAnswer(error: BodyBroken, identity: RequestIdentity): APIConnectionError {
  const what =
    error instanceof BodyUndecodable
      ? `its ${error.encoding} body could not be decoded`
      : error instanceof BodyCompressedCut
        ? `its ${error.encoding} body broke off`
        : 'its body broke off';
  const message = `${statusLine(error.answered)}, but ${what} after ${error.decoded} bytes: ${describeCause(error.cause)}`;
  return new APIConnectionError(identity, message, {
    cause: redactedCause(error.cause),
    answer: { status: error.answered, body: error.text },
  });
}

/**
 * The error as a cause that quotes no secret: fetch's own errors may quote a header value (a token),
 * so one whose message holds a known secret is replaced by a masked copy, as logs copy an error.
 */
function redactedCause(error: unknown): unknown {
  if (!(error instanceof Error) || redactText(error.message) === error.message) return error;
  return redactDeep(error);
}

/**
 * The error for a client token that could not be obtained. A login's own failure is already the
 * SDK's; anything else comes from the partner's token function (it threw, or gave no usable
 * token): bad input, as for a seller's token, never a connection that failed.
 */
export function tokenFailure(error: unknown, identity: RequestIdentity): PartnerError {
  return tokenInputFailure(
    error,
    `Invalid clientToken for ${requestLine(identity)}`,
    'clientToken',
  );
}

/** The error for a seller token whose function failed or returned no usable token: bad input. */
export function bearerFailure(error: unknown): PartnerError {
  return tokenInputFailure(error, 'Invalid forUser() token', 'publicToken');
}

function tokenInputFailure(error: unknown, what: string, option: string): PartnerError {
  if (error instanceof PartnerError) return error;
  const issue = { path: [option], message: errorSummary(error), code: 'invalid_token' };
  return new RequestValidationError(what, [issue], { cause: error });
}

/**
 * A failure in words: its system code and the reason the runtime gave, on one line (OpenSSL's
 * reasons end in a line break, and a message is one log line).
 */
function describeCause(cause: unknown): string {
  const code = errorCode(cause);
  const message = errorSummary(reason(cause)).replace(/\s+/g, ' ').trim();
  if (code === undefined || message.includes(code)) return message;
  return `${code} (${message})`;
}

/**
 * The deepest error along `error`'s causes that says something: fetch's own `fetch failed` gives
 * the reason only in its cause (`bad port`, `certificate has expired`, `other side closed`).
 */
function reason(error: unknown): unknown {
  let found = error;
  for (const cause of causeChain(error)) {
    if (cause instanceof Error && cause.message !== '') found = cause;
  }
  return found;
}

const AUTH_HINTS = {
  client: "the client token was refused (a seller's endpoint needs client.forUser(publicToken))",
  seller:
    "the seller's public token was refused: check the token given to forUser, or a bulk item's sellerToken",
  either: "the client token or the seller's public token was refused",
} as const;

/** Which token a 401 blames. */
export type RefusedToken = keyof typeof AUTH_HINTS;

/** The 401 with a hint saying which token the service refused. */
export function withAuthHint(error: APIError, refused: RefusedToken): APIError {
  return makeAPIError(
    error,
    error.status,
    error.body,
    error.headers,
    `${bodyMessage(error.body) ?? 'unauthorized'} (${AUTH_HINTS[refused]})`,
  );
}
