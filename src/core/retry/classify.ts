/**
 * One reading of a failed attempt, shared by the client's retries (`policy.ts`) and by bulk jobs,
 * so that the two can never disagree: whether another attempt is worth making, whether the service
 * may have acted on the one that failed, and how long the service asked to wait.
 *
 * The spec shows no status beyond 500 and no time-out statuses, so HTTP's own meanings decide:
 * - 408 is repeated, and may have acted: the answer may come from a proxy that had already passed
 *   the request on, and for a refund "no second refund" outweighs one more read to check.
 * - 501 is final: the service does not support the request, and a repeat gets the same answer.
 * - Every other 5xx is repeated and may have acted; 429 is repeated and did not act.
 */

import { causeChain } from '../../shared/cause-chain';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  RequestValidationError,
} from '../errors';
import { retryAfterOf } from './retry-after';

/**
 * The longest `Retry-After` waited for, by a call, a bulk job, a queue or a shared pace; a longer
 * one fails at once (never cut short).
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/** A failed attempt as the classification reads it, whatever reported it (ky or the SDK's errors). */
export type Failure =
  /** The service answered with an error status; `retryAfterMs` is the wait its `Retry-After` asked for. */
  | { kind: 'answer'; status: number; retryAfterMs: number | undefined }
  /** The attempt ran out of time, before or while reading the answer. */
  | { kind: 'timeout' }
  /**
   * No answer: the connection failed; `code` is the system's (`ECONNREFUSED`…) when known,
   * `proxyStatus` the status of a proxy that refused the tunnel to the service.
   */
  | { kind: 'connection'; code: string | undefined; proxyStatus?: number | undefined }
  /** Refused before anything was sent (a parameter the SDK's checks refused). */
  | { kind: 'unsent' }
  /** Anything else (an answer that did not parse…): sent, not worth repeating. */
  | { kind: 'other' };

/** What a failure means for another attempt. */
export interface FailureClass {
  /** Another attempt may succeed (where the call's replay rule allows one). */
  readonly retryable: boolean;
  /** The service may have acted on the failed attempt: check before repeating an unsafe call. */
  readonly mayHaveActed: boolean;
  /** The wait the service asked for (`Retry-After`), in milliseconds, when it asked. */
  readonly retryAfterMs: number | undefined;
}

/** Connection failures that prove the request never reached the service. */
const NEVER_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Failures refused before the request went anywhere, which a repeat meets again: undici's check of
 * what it was asked to send, also how its `ProxyAgent` reports a proxy's 407 (proxy credentials
 * missing or wrong) on a plain-HTTP request.
 */
const REFUSED_UNSENT_CODES: ReadonlySet<string> = new Set(['UND_ERR_INVALID_ARG']);

/** Classifies a failed attempt (see the module's notes for the statuses the spec leaves open). */
export function classifyFailure(failure: Failure): FailureClass {
  switch (failure.kind) {
    case 'answer': {
      const { status } = failure;
      return {
        retryable: status === 408 || status === 429 || (status >= 500 && status !== 501),
        mayHaveActed: status === 408 || status >= 500,
        retryAfterMs: failure.retryAfterMs,
      };
    }
    case 'timeout':
      return { retryable: true, mayHaveActed: true, retryAfterMs: undefined };
    case 'connection': {
      const { code = '', proxyStatus } = failure;
      // A tunnel the proxy refused carried nothing; its 4xx (credentials, a blocked host) stays.
      const refused = REFUSED_UNSENT_CODES.has(code) || (proxyStatus ?? 500) < 500;
      const neverSent = refused || proxyStatus !== undefined || NEVER_SENT_CODES.has(code);
      return { retryable: !refused, mayHaveActed: !neverSent, retryAfterMs: undefined };
    }
    case 'unsent':
      return { retryable: false, mayHaveActed: false, retryAfterMs: undefined };
    case 'other':
      return { retryable: false, mayHaveActed: true, retryAfterMs: undefined };
  }
}

/** The first string `code` along an error's chain of causes (`ECONNREFUSED`…). */
export function errorCode(error: unknown): string | undefined {
  for (const cause of causeChain(error)) {
    const { code } = cause as { code?: unknown };
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * How undici (the npm package's `ProxyAgent`, and Node's own fetch under `NODE_USE_ENV_PROXY`)
 * says a proxy refused a `CONNECT`: no code of its own tells it apart, so its words are read; were
 * they to change, such a failure is read as any lost connection, which is never less safe.
 */
const TUNNEL_REFUSED = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/;

/** The status a proxy refused the tunnel with, found along an error's causes. */
export function tunnelRefusal(error: unknown): number | undefined {
  for (const cause of causeChain(error)) {
    const status = cause instanceof Error ? TUNNEL_REFUSED.exec(cause.message)?.[1] : undefined;
    if (status !== undefined) return Number(status);
  }
  return undefined;
}

/**
 * Errors a call threw while it waited for its credentials: before its request went out, or after
 * the service refused it with a 401 (which acts on nothing) and a fresh login failed.
 */
const beforeSendingErrors = new WeakSet<object>();

/**
 * `wait`, a call's wait for its credentials (a login, a time-out waiting for one), with the error
 * it may fail with marked: whatever it says of the login, the service acted on nothing the call
 * sent, which {@link classifyError} then says.
 */
export function beforeSending<T>(wait: Promise<T>): Promise<T> {
  return wait.catch((error: unknown) => {
    throw sentNothing(error);
  });
}

/**
 * Marks `error` as one thrown before anything it stands for was sent (a refusal decided on a
 * read, as a bulk job's `unlessRefunded`): {@link classifyError} then says the service acted on
 * nothing, so a job never takes the item for one in doubt.
 *
 * @example
 * ```ts
 * throw sentNothing(new AlreadyRefundedError(hash, refund));
 * ```
 */
export function sentNothing<E>(error: E): E {
  if (typeof error === 'object' && error !== null) beforeSendingErrors.add(error);
  return error;
}

/** Failed logins the client repeats to every call until their hold ends, with its time left. */
const heldLogins = new WeakMap<object, () => number>();

/** Marks `error`, a failed login, as repeated to every call for `leftMs()` more (token-manager.ts). */
export function heldLogin(error: unknown, leftMs: () => number): void {
  if (typeof error === 'object' && error !== null) heldLogins.set(error, leftMs);
}

/**
 * The milliseconds left of the hold `error` stands for: a login refused with a `Retry-After` the
 * client holds every further login back for (no call can be sent until then); `undefined` for
 * any other error. A bulk job or a queue waits for it as for a rate limit.
 *
 * @example
 * ```ts
 * const leftMs = loginHeldFor(error);
 * ```
 */
export function loginHeldFor(error: unknown): number | undefined {
  const left = typeof error === 'object' && error !== null ? heldLogins.get(error) : undefined;
  return left && Math.max(0, left());
}

/**
 * Classifies a call's failure as the SDK reported it (what a bulk job sees): an `APIError` by its
 * status, a time-out, a lost connection, a parameter refused before sending; anything else (an
 * abort, an answer that did not parse) was sent and is not repeated. A failure while the call
 * waited for its credentials (a login answered 500) is read as that failure, but never as one the
 * service may have acted on: the call's own request never went out, or was refused with a 401.
 *
 * @example
 * ```ts
 * const { retryable, mayHaveActed } = classifyError(error);
 * ```
 */
export function classifyError(error: unknown): FailureClass {
  const reading = classifyFailure(failureOfError(error));
  const unsent = typeof error === 'object' && error !== null && beforeSendingErrors.has(error);
  return unsent ? { ...reading, mayHaveActed: false } : reading;
}

function failureOfError(error: unknown): Failure {
  if (error instanceof APIError) {
    // A held login's own `Retry-After` counts from when it was answered; the hold has less left.
    const retryAfterMs = loginHeldFor(error) ?? retryAfterOf(error.headers);
    return { kind: 'answer', status: error.status, retryAfterMs };
  }
  if (error instanceof APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof APIConnectionError) {
    return { kind: 'connection', code: errorCode(error), proxyStatus: tunnelRefusal(error) };
  }
  if (error instanceof RequestValidationError) return { kind: 'unsent' };
  return { kind: 'other' };
}
