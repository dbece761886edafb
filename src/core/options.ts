/**
 * The client's options: their types, their environment defaults, and the one place that checks
 * them, so a wrong option fails at construction with a message naming it, not at the first call.
 */

import { PartnerError } from './errors';
import { createLogger, type Logger, type LogLevel, parseLogLevel, type SdkLogger } from './logger';
import { registerSecret } from './redact';
import type { ClientTokenStore } from './token-store';

/** A token value, or a function (possibly async) returning the current one. */
export type TokenSource = string | (() => string | Promise<string>);

/** How strictly responses are checked against the documented shapes. */
export type ValidateResponses = 'strict' | 'warn' | 'off';

/** A `fetch`-compatible function (the platform's, undici's, a test double's). */
export type FetchLike = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/**
 * Options of {@link PartnerClient}. Every one has a default; `baseUrl` and the credentials also
 * read the environment (`PARTNER_API_BASE_URL`, `PARTNER_API_CLIENT_ID`, `PARTNER_API_CLIENT_SECRET`,
 * `PARTNER_API_CLIENT_TOKEN`, `PARTNER_API_LOG`).
 */
export interface ClientOptions {
  /** The service address including the version prefix, e.g. `https://partner.example.com/api/v1`. Default: env `PARTNER_API_BASE_URL`. */
  baseUrl?: string;
  /** Client identifier for the login at `POST /auth`. Default: env `PARTNER_API_CLIENT_ID`. */
  clientId?: string;
  /** Client secret for the login at `POST /auth`. Default: env `PARTNER_API_CLIENT_SECRET`. */
  clientSecret?: string;
  /**
   * A client token obtained elsewhere, or a function returning the current one (called before each
   * request: cache inside it). With `clientId`/`clientSecret` too, this token is used first and the
   * credentials log in again when the service refuses it. Default: env `PARTNER_API_CLIENT_TOKEN`.
   */
  clientToken?: TokenSource;
  /** Milliseconds one attempt may take before it is abandoned (and, if safe, retried). Default 30 000. */
  timeout?: number;
  /** Milliseconds the whole call may take, retries and back-off included. Default 120 000. */
  totalTimeout?: number;
  /** How many times a failed call that is safe to repeat is retried. Default 2. */
  maxRetries?: number;
  /**
   * The largest response body read, in bytes after decompression (counted while reading, so a
   * huge or inflating body is cancelled early): a larger one fails with `ResponseTooLargeError`.
   * Downloads (`statements.download`) are the caller's stream and not bounded by it. Default
   * 32 MiB.
   */
  maxResponseBytes?: number;
  /** A custom `fetch` (for proxies, instrumentation or tests). Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Where log lines go: any console-compatible object. Default: `console`. */
  logger?: Logger;
  /** How much is logged. Default: env `PARTNER_API_LOG`, else `'warn'`. */
  logLevel?: LogLevel;
  /** `'strict'` throws `ResponseValidationError` on an undocumented shape; `'warn'` logs and returns it; `'off'` skips the check. Default `'strict'`. */
  validateResponses?: ValidateResponses;
  /** Headers added to every request to `baseUrl`'s origin (never to another origin, never overriding the SDK's authentication headers). */
  defaultHeaders?: Record<string, string>;
  /**
   * Shares the logins of `clientId`/`clientSecret` with other processes (replicas, workers): one
   * login for the whole fleet, and after a 401 one re-login that every process picks up. Without it
   * each client logs in on its own. `partner-sdk/redis`'s `RedisTokenStore` is one; if the store is
   * down or slow the client logs in locally and warns, so a call never fails because of it.
   */
  tokenStore?: ClientTokenStore;
}

/**
 * Per-call options, the last argument of every method. Each overrides the client's option of the
 * same name for this call only.
 */
export interface RequestOptions {
  /** Aborts the call (and any retry or wait) when the signal fires; rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
  /** Milliseconds one attempt may take. */
  timeout?: number;
  /** Milliseconds the whole call may take, retries included. */
  totalTimeout?: number;
  /** Retries for this call (0 disables them). */
  maxRetries?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /** The largest decoded response body for this call, in bytes (see `ClientOptions.maxResponseBytes`). */
  maxResponseBytes?: number;
  /**
   * Body fields the spec does not document, sent knowingly: added to this call's JSON body (or,
   * for `users.update`, to its multipart form) as given, unchecked. Nested objects merge
   * (`{ filter: { type: 'credit' } }` keeps the checked `filter.betweenDates`); any other value
   * replaces a documented field of the same name. Params refuse an undocumented key (a typo is caught there); this is the way
   * around that for a field the service accepts but the spec does not show. A call without a body
   * refuses it (use `extraQuery`).
   *
   * @example
   * ```ts
   * await client.offers.update('prd_1', 'off_1', { price: 19_900 }, { extraBody: { checkout_theme: 'dark' } });
   * ```
   */
  extraBody?: Record<string, unknown>;
  /**
   * Query parameters the spec does not document, added to this call's URL as given (unchecked;
   * `undefined` values are left out), overriding a documented parameter of the same name.
   *
   * @example
   * ```ts
   * await client.products.list({ per_page: 50 }, { extraQuery: { status: 'approved' } });
   * ```
   */
  extraQuery?: Record<string, string | number | boolean | undefined>;
}

/** Options after defaults and checks: what the transport runs on. */
export interface ResolvedOptions {
  readonly baseUrl: string;
  readonly origin: string;
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  readonly clientToken: TokenSource | undefined;
  readonly timeout: number;
  readonly totalTimeout: number;
  readonly maxRetries: number;
  readonly maxResponseBytes: number;
  readonly fetch: FetchLike | undefined;
  readonly logger: SdkLogger;
  readonly validateResponses: ValidateResponses;
  readonly defaultHeaders: Readonly<Record<string, string>>;
  readonly tokenStore: ClientTokenStore | undefined;
}

function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env?.[name];
  return value === '' ? undefined : value;
}

function optionError(message: string): PartnerError {
  return new PartnerError(`Invalid PartnerClient options: ${message}`);
}

function checkMs(name: string, value: number): number {
  // 2^31-1 is the largest delay timers accept.
  if (!Number.isFinite(value) || value <= 0 || value > 2_147_483_647) {
    throw optionError(`\`${name}\` must be a positive number of milliseconds (got ${value}).`);
  }
  return value;
}

/** The default of `maxResponseBytes`: far above any documented body, far below harm. */
const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

function checkBytes(value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw optionError(
      `\`maxResponseBytes\` must be a positive whole number of bytes (got ${value}).`,
    );
  }
  return value;
}

function checkRetries(value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 10) {
    throw optionError(`\`maxRetries\` must be a whole number from 0 to 10 (got ${value}).`);
  }
  return value;
}

/** Applies defaults and environment, then checks every option; throws a `PartnerError` naming the bad one. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  const url = readBaseUrl(options.baseUrl ?? env('PARTNER_API_BASE_URL'));
  const credentials = readCredentials(options);
  const maxRetries = checkRetries(options.maxRetries ?? 2);
  const { validateResponses, logLevel } = readChecks(options);
  const tokenStore = readTokenStore(options.tokenStore, credentials.clientId);
  return {
    // Paths are appended as `${baseUrl}${path}` with path starting at '/', so drop trailing slashes.
    baseUrl: url.href.replace(/\/+$/, ''),
    origin: url.origin,
    ...credentials,
    timeout: checkMs('timeout', options.timeout ?? 30_000),
    totalTimeout: checkMs('totalTimeout', options.totalTimeout ?? 120_000),
    maxRetries,
    maxResponseBytes: checkBytes(options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES),
    fetch: options.fetch,
    logger: createLogger(options.logger ?? console, logLevel),
    validateResponses,
    defaultHeaders: { ...options.defaultHeaders },
    tokenStore,
  };
}

function readBaseUrl(rawBaseUrl: string | undefined): URL {
  if (!rawBaseUrl) {
    throw optionError(
      '`baseUrl` is missing: pass it (e.g. `https://partner.example.com/api/v1`) or set PARTNER_API_BASE_URL.',
    );
  }
  let url: URL;
  try {
    url = new URL(rawBaseUrl);
  } catch {
    throw optionError(`\`baseUrl\` is not an absolute URL: ${JSON.stringify(rawBaseUrl)}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw optionError(`\`baseUrl\` must use http or https (got ${url.protocol}).`);
  }
  if (url.search || url.hash) {
    throw optionError('`baseUrl` must not carry a query string or fragment.');
  }
  return url;
}

function readCredentials(
  options: ClientOptions,
): Pick<ResolvedOptions, 'clientId' | 'clientSecret' | 'clientToken'> {
  const clientId = options.clientId ?? env('PARTNER_API_CLIENT_ID');
  const clientSecret = options.clientSecret ?? env('PARTNER_API_CLIENT_SECRET');
  const clientToken = options.clientToken ?? env('PARTNER_API_CLIENT_TOKEN');
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw optionError(
      `\`${clientId === undefined ? 'clientId' : 'clientSecret'}\` is missing: the login needs both clientId and clientSecret.`,
    );
  }
  if (clientId === undefined && clientToken === undefined) {
    throw optionError(
      'no credentials: pass `clientId` and `clientSecret` (or PARTNER_API_CLIENT_ID / PARTNER_API_CLIENT_SECRET), or `clientToken` (or PARTNER_API_CLIENT_TOKEN).',
    );
  }
  // The client's own credentials stay masked for good, however many sellers' tokens pass by.
  registerSecret(clientSecret, true);
  if (typeof clientToken === 'string') {
    registerSecret(clientToken, true);
    if (/[\0\r\n]/.test(clientToken)) {
      throw optionError(
        '`clientToken` contains a line break or NUL, which no HTTP header can carry.',
      );
    }
  }
  return { clientId, clientSecret, clientToken };
}

function readChecks(options: ClientOptions): {
  validateResponses: ValidateResponses;
  logLevel: LogLevel;
} {
  const validateResponses = options.validateResponses ?? 'strict';
  if (!['strict', 'warn', 'off'].includes(validateResponses)) {
    throw optionError(
      `\`validateResponses\` must be 'strict', 'warn' or 'off' (got ${String(validateResponses)}).`,
    );
  }
  const logLevel = options.logLevel ?? parseLogLevel(env('PARTNER_API_LOG')) ?? 'warn';
  if (parseLogLevel(logLevel) === undefined) {
    throw optionError(
      `\`logLevel\` must be 'off', 'error', 'warn', 'info' or 'debug' (got ${String(logLevel)}).`,
    );
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw optionError('`fetch` must be a function.');
  }
  return { validateResponses, logLevel };
}

function readTokenStore(
  tokenStore: ClientTokenStore | undefined,
  clientId: string | undefined,
): ClientTokenStore | undefined {
  if (tokenStore === undefined) return undefined;
  if (typeof tokenStore?.obtain !== 'function') {
    throw optionError('`tokenStore` must have an `obtain` method (a ClientTokenStore).');
  }
  if (clientId === undefined) {
    throw optionError('`tokenStore` shares logins: it needs `clientId` and `clientSecret`.');
  }
  return tokenStore;
}

/**
 * Warns when `baseUrl`'s path does not end in the version prefix `/api/v1` (spec conventions and
 * §9: every path is relative to it), the usual cause of every call answering 404. Only a warning:
 * a proxy or a gateway may mount the service elsewhere.
 */
export function warnIfUnversioned(options: ResolvedOptions): void {
  if (options.baseUrl.endsWith('/api/v1')) return;
  options.logger.warn(
    `baseUrl ${options.baseUrl} does not end in /api/v1, the service's version prefix: calls may answer 404.`,
  );
}

/** Checks one call's overrides the same way; returns them merged over the client's. */
export function callSettings(
  base: ResolvedOptions,
  options: RequestOptions | undefined,
): { timeout: number; totalTimeout: number; maxRetries: number; maxResponseBytes: number } {
  const maxRetries =
    options?.maxRetries === undefined ? base.maxRetries : checkRetries(options.maxRetries);
  return {
    timeout: options?.timeout === undefined ? base.timeout : checkMs('timeout', options.timeout),
    totalTimeout:
      options?.totalTimeout === undefined
        ? base.totalTimeout
        : checkMs('totalTimeout', options.totalTimeout),
    maxRetries,
    maxResponseBytes:
      options?.maxResponseBytes === undefined
        ? base.maxResponseBytes
        : checkBytes(options.maxResponseBytes),
  };
}
