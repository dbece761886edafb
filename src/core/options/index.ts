/**
 * The client's options and a call's: their types. `resolve-options.ts` applies their defaults and
 * checks them.
 */

import type { Assumptions, ResolvedAssumptions } from '../../assumptions';
import type { TelemetryOptions } from '../../telemetry/types';
import type { ClientTokenStore } from '../auth/token-store';
import type { Logger, LogLevel, SdkLogger } from '../logging/logger';
import type { RequestPace } from '../pace/index';

/** A token value, or a function (possibly async) returning the current one. */
export type TokenSource = string | (() => string | Promise<string>);

/** How strictly responses are checked against the documented shapes. */
export type ValidateResponses = 'strict' | 'warn' | 'off';

/** A `fetch`-compatible function (the platform's, undici's, a test double's). */
export type FetchLike = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

// `PartnerClient` in a code span, not a link: core/ may not import the client, not even a type.
/**
 * Options of `new PartnerClient(options)`. Every one has a default; `baseUrl` and the credentials
 * also read the environment (`PARTNER_API_BASE_URL`, `PARTNER_API_CLIENT_ID`, `PARTNER_API_CLIENT_SECRET`,
 * `PARTNER_API_CLIENT_TOKEN`, `PARTNER_API_LOG`). Every option takes `undefined` as absent, so a
 * value read from the environment (`process.env.X`, a `string | undefined`) or a wrapper's own
 * optional setting passes as is, also in a project with `exactOptionalPropertyTypes`; given to
 * `withOptions`, it keeps the parent's value. A value out of its range throws a `PartnerError`
 * naming the option (`Invalid PartnerClient options: …`) when the client is made.
 */
export interface ClientOptions {
  /** The service address including the version prefix, e.g. `https://partner.example.com/api/v1`, with no query string, fragment, user or password. Default: env `PARTNER_API_BASE_URL`. */
  baseUrl?: string | undefined;
  /** Client identifier for the login at `POST /auth`. Default: env `PARTNER_API_CLIENT_ID`. */
  clientId?: string | undefined;
  /** Client secret for the login at `POST /auth`. Default: env `PARTNER_API_CLIENT_SECRET`. */
  clientSecret?: string | undefined;
  /**
   * A client token obtained elsewhere, or a function returning the current one (called before each
   * request: cache inside it). With `clientId`/`clientSecret` too, this token is used first and the
   * credentials log in again when the service refuses it. Default: env `PARTNER_API_CLIENT_TOKEN`.
   * A function that throws or returns no usable token (empty, or with its `Bearer ` scheme)
   * rejects the call with a `RequestValidationError` naming `clientToken`, nothing sent.
   */
  clientToken?: TokenSource | undefined;
  /**
   * Milliseconds one attempt may take before it is abandoned (and, if safe, retried): above 0, at
   * most 2 147 483 647 (about 24.8 days, the longest a timer waits). Default 30 000.
   */
  timeout?: number | undefined;
  /**
   * Milliseconds the whole call may take, retries and back-off included: above 0, at most
   * 2 147 483 647. Default 120 000.
   */
  totalTimeout?: number | undefined;
  /** How many times a failed call that is safe to repeat is retried: a whole number, 0 to 10. Default 2. */
  maxRetries?: number | undefined;
  /**
   * The largest response body read, in bytes after decompression (counted while reading, so a
   * huge or inflating body is cancelled early), a positive whole number: a larger body fails with
   * `ResponseTooLargeError`.
   * Downloads (`statements.download`) are the caller's stream and not bounded by it. Default
   * 32 MiB.
   */
  maxResponseBytes?: number | undefined;
  /**
   * The largest file a multipart body sends (`users.update`'s `avatar`, `emancipated_document`),
   * in bytes, a positive whole number: a stream is read up to it and cancelled past it, and a
   * larger file refuses the call with `RequestValidationError` naming the field, before anything
   * is sent. The spec states no limit; default 32 MiB.
   */
  maxUploadBytes?: number | undefined;
  /** A custom `fetch` (for proxies, instrumentation or tests). Default: the global `fetch`. */
  fetch?: FetchLike | undefined;
  /**
   * Where log lines go: any console-compatible object. Default: `console`, whose `warn` and
   * `error` write to stderr and `info` and `debug` to stdout.
   */
  logger?: Logger | undefined;
  /**
   * How much is logged. Default: env `PARTNER_API_LOG`, else `'warn'` (a `PARTNER_API_LOG` naming
   * no level is said once per process, at `warn`).
   */
  logLevel?: LogLevel | undefined;
  /** `'strict'` throws `ResponseValidationError` on an undocumented shape; `'warn'` logs and returns it; `'off'` skips the check. Default `'strict'`. */
  validateResponses?: ValidateResponses | undefined;
  /** Headers added to every request to `baseUrl`'s origin (never to another origin, never overriding the SDK's authentication headers). */
  defaultHeaders?: Record<string, string> | undefined;
  /**
   * Shares the logins of `clientId`/`clientSecret` with other processes (replicas, workers): one
   * login for the whole fleet, and after a 401 one re-login that every process picks up. Without it
   * each client logs in on its own. `partner-sdk/redis`'s `RedisTokenStore` is one; if the store is
   * down, or has not answered within `timeout`, the client logs in locally and warns, so a call
   * never fails because of it.
   */
  tokenStore?: ClientTokenStore | undefined;
  /**
   * Overrides the SDK's assumptions where the spec does not show a shape (the login, the refund
   * and export status endpoints and their statuses, the refund reconciliation, the anticipation's
   * scenario field, how strings are read), so a client follows a service that differs without a
   * new release. Checked at construction; clients derived with `forUser` and `withOptions` inherit
   * it (a `withOptions` override is merged over the parent's). Default: the documented
   * assumptions (`docs/assumptions.md`).
   *
   * @example
   * ```ts
   * const client = new PartnerClient({ baseUrl, clientToken, assumptions: { anticipationConfirmation: { field: 'type' } } });
   * ```
   */
  assumptions?: Assumptions | undefined;
  /**
   * OpenTelemetry spans and metrics (see the "Tracing and metrics" guide). By default they go to
   * the providers registered with `@opentelemetry/api`, and cost nothing when there are none;
   * `{ tracerProvider, meterProvider }` sends them elsewhere, `false` turns them off.
   */
  telemetry?: false | TelemetryOptions | undefined;
  /**
   * One request budget for every process using these credentials: each attempt draws from it, and
   * a 429 with `Retry-After` seen by any process pauses them all until then. `partner-sdk/redis`'s
   * `fleetPace` is one (see the "Running on many replicas" guide). A call waits for the pace within
   * its `totalTimeout` (then `APIConnectionTimeoutError`). Default: none, each call is sent at once
   * and only its own retries wait.
   *
   * @example
   * ```ts
   * const client = new PartnerClient({ pace: fleetPace(redis, { requestsPerSecond: 50 }) });
   * ```
   */
  pace?: RequestPace | undefined;
}

/**
 * Per-call options, the last argument of every method. Each overrides the client's option of the
 * same name for this call only; `undefined` is read as absent (the client's own), so a wrapper can
 * pass its own optional `signal` or `timeout` on as is, also under exactOptionalPropertyTypes.
 * Each takes the range of the client's option; a value out of it rejects the call with a
 * `PartnerError` naming the option (`Invalid request options: …`), nothing sent.
 */
export interface RequestOptions {
  /**
   * Aborts the call (and any retry or wait) when the signal fires; rejects with
   * `APIUserAbortError`, except a refund request aborted once it was sent: `OutcomeUnknownError`
   * (the refund may exist), its `cause` that `APIUserAbortError`.
   */
  signal?: AbortSignal | undefined;
  /** Milliseconds one attempt may take (see `ClientOptions.timeout`). */
  timeout?: number | undefined;
  /** Milliseconds the whole call may take, retries included (see `ClientOptions.totalTimeout`). */
  totalTimeout?: number | undefined;
  /** Retries for this call, 0 to 10 (0 disables them). */
  maxRetries?: number | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
  /** The largest decoded response body for this call, in bytes (see `ClientOptions.maxResponseBytes`). */
  maxResponseBytes?: number | undefined;
  /** The largest file this call's multipart body sends, in bytes (see `ClientOptions.maxUploadBytes`). */
  maxUploadBytes?: number | undefined;
  /**
   * Body fields the spec does not document, sent knowingly: added to this call's JSON body (or,
   * for `users.update`, to its multipart form) as given, unchecked by any schema; only a value the
   * body cannot carry as given (`NaN`, `Infinity`, an invalid `Date`, a lone UTF-16 surrogate, a
   * bigint in JSON) is refused with `RequestValidationError`. Nested objects merge
   * (`{ filter: { type: 'credit' } }` keeps the checked `filter.betweenDates`); any other value
   * replaces a documented field of the same name. Params refuse an undocumented key (a typo is caught there); this is the way
   * around that for a field the service accepts but the spec does not show. A call without a body
   * refuses it (use `extraQuery`).
   *
   * @example
   * ```ts
   * await seller.offers.update('prd_1', 'off_1', { price: 19_900 }, { extraBody: { checkout_theme: 'dark' } });
   * ```
   */
  extraBody?: Record<string, unknown> | undefined;
  /**
   * Query parameters the spec does not document, added to this call's URL as given (unchecked
   * by any schema; `undefined` values are left out, a boolean is sent as `1`/`0` as in a form,
   * which a Laravel `boolean` rule reads, and `NaN` or `Infinity` is refused), overriding a
   * documented parameter of the same name.
   *
   * @example
   * ```ts
   * await client.products.list({ per_page: 50 }, { extraQuery: { status: 'approved' } });
   * ```
   */
  extraQuery?: Record<string, string | number | boolean | undefined> | undefined;
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
  readonly maxUploadBytes: number;
  readonly fetch: FetchLike | undefined;
  readonly logger: SdkLogger;
  readonly validateResponses: ValidateResponses;
  readonly defaultHeaders: Readonly<Record<string, string>>;
  readonly tokenStore: ClientTokenStore | undefined;
  readonly assumptions: ResolvedAssumptions;
  readonly telemetry: false | TelemetryOptions | undefined;
  readonly pace: RequestPace | undefined;
}
