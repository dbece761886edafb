/**
 * The one place that turns a call description into HTTP: headers and credentials, time-outs,
 * retries (decided in `retry.ts`, one ky attempt each), the 401 re-login, response parsing and
 * validation, and the mapping of every failure to the SDK's error classes. Resources describe calls
 * (`CallSpec`); they never touch HTTP.
 */

import ky, {
  isHTTPError,
  isNetworkError,
  isTimeoutError,
  type KyInstance,
  type Options as KyOptions,
} from 'ky';
import { safeParse } from 'zod/mini';
import type { $ZodType, output } from 'zod/v4/core';
import { LOGIN } from '../assumptions';
import { VERSION } from '../version';
import { abortableResponse } from './abortable-response';
import { type APIPromise, apiPromise, type WithResponse } from './api-promise';
import { ClientTokenManager, knownToken, resolveToken } from './auth';
import { BodyTimeout, BodyTooLarge, readBody } from './body';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  bodyMessage,
  makeAPIError,
  OutcomeUnknownError,
  PartnerError,
  type RequestIdentity,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  type ValidationIssue,
} from './errors';
import { withExtraFields } from './extra-fields';
import {
  callSettings,
  type RequestOptions,
  type ResolvedOptions,
  type TokenSource,
} from './options';
import { acceptsFast } from './quick-accept';
import { type Reconciliation, Recovered } from './reconcile';
import { holdSecret, redactText } from './redact';
import { mayHaveActed, type ReplayPolicy, retryDelay, retryReason, timeForWait } from './retry';
import { sleep } from './sleep';

/** HTTP methods the service uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A zod schema (classic or mini) whose output types the call's result. */
export type Schema<T = unknown> = $ZodType<T>;

/** Query parameters of a call; `undefined` values are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/** Everything a resource says about one call. */
export interface CallSpec<S extends Schema | undefined = Schema | undefined> {
  /** HTTP method. */
  method: HttpMethod;
  /** Path under `baseUrl` starting with `/` (already encoded, see `path`), or an absolute URL. */
  path: string;
  /** Query parameters; `undefined` values are left out. */
  query?: QueryParams | undefined;
  /** A JSON body. */
  json?: unknown;
  /** A multipart body; its parts are in memory, so every attempt sends the same bytes. */
  form?: FormData | Promise<FormData> | undefined;
  /**
   * Schema of the response body, or a function choosing it by HTTP status (202 vs 200) or by the
   * body's shape (enveloped or bare); without one the parsed body is returned as it came.
   */
  schema?: S | ((status: number, body: unknown) => S);
  /**
   * `true` when `schema` is the caller's own (`client.request({ schema })`): it is always checked
   * by zod, never by the quick acceptance that only models the SDK's own response schemas.
   */
  callerSchema?: boolean;
  /** Whether a failed attempt may be sent again (see {@link ReplayPolicy}). */
  replay: ReplayPolicy;
  /**
   * For a call whose repeat is not harmless in every state: before replaying an attempt the
   * service may have acted on, find out whether it did (see {@link Reconciliation}).
   */
  reconcile?: Reconciliation;
  /** Non-2xx statuses that are results, not errors (the running export's 409). */
  acceptStatus?: readonly number[];
  /** `false` sends no credentials (the login itself); calls outside `baseUrl`'s origin never get them. */
  authenticate?: boolean;
  /**
   * `true` returns the `Response` itself as the result, its body unread (a file download the caller
   * streams); `schema` is then ignored. Error statuses still throw typed errors.
   */
  raw?: boolean;
}

/**
 * A call spec, or a function building it: resources pass a function so that a parameter check that
 * fails becomes a rejected promise (nothing sent) rather than a synchronous throw.
 */
export type CallSpecInput<S extends Schema | undefined> =
  | CallSpec<S>
  | (() => CallSpec<S> | Promise<CallSpec<S>>);

/**
 * The parsed result type of a call spec: the schema's output, or `unknown` without a schema.
 *
 * @inline
 */
export type CallResult<S> = S extends Schema ? output<S> : unknown;

/** Who a call acts for: the root client, or a seller through `forUser`. */
export interface CallContext {
  /** The seller's public token, sent as `Authorization: Bearer …`. */
  readonly bearer?: TokenSource | undefined;
}

const USER_AGENT = `partner-sdk/${VERSION} (${runtimeName()})`;

function runtimeName(): string {
  const g = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } } };
  if (g.Bun) return `bun ${g.Bun.version}`;
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  if (typeof process !== 'undefined' && process.versions?.node) {
    return `node ${process.versions.node}; ${process.platform}`;
  }
  return 'fetch';
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** `throwHttpErrors` of a call that follows redirects itself: a 3xx is handed back, not thrown. */
const throwUnlessRedirect = (status: number) => !REDIRECT_STATUSES.has(status);

/** The HTTP engine of one client configuration; clients derived with `withOptions` share its tokens. */
export class Transport {
  readonly options: ResolvedOptions;
  readonly tokens: ClientTokenManager;
  /** ky with everything static about a call, so that its per-call option merging stays small. */
  readonly #ky: KyInstance;
  /** `defaultHeaders` with lower-case names, so that the SDK's own headers override them. */
  readonly #defaultHeaders: Readonly<Record<string, string>>;
  readonly #hasDefaultHeaders: boolean;
  /** Whether the logger writes these levels (fixed at construction), checked on every call. */
  readonly #info: boolean;
  /** The client's own time-outs and retries: what a call without options runs on. */
  readonly #settings: ReturnType<typeof callSettings>;
  readonly #debug: boolean;
  /** Whether the logger writes warnings (each retry is one). */
  readonly #warn: boolean;

  constructor(options: ResolvedOptions, tokens?: ClientTokenManager) {
    this.options = options;
    this.tokens =
      tokens ??
      new ClientTokenManager({
        clientToken: options.clientToken,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        login: (id, secret) => this.#login(id, secret),
        shared: options.tokenStore && {
          store: options.tokenStore,
          key: `${options.baseUrl} ${options.clientId}`,
          warn: (message) => options.logger.warn(message),
        },
      });
    const logger = options.logger;
    this.#info = logger.enabled('info');
    this.#settings = callSettings(options, undefined);
    this.#debug = logger.enabled('debug');
    const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    // Per-attempt debug lines come from wrapping fetch: ky calls it once per attempt.
    const fetch = logger.enabled('debug')
      ? async (input: Request | URL | string, init?: RequestInit) => {
          const request = input instanceof Request ? input : new Request(input, init);
          // A URL outside baseUrl (a pre-signed file) is shown without its query: its signature.
          const shown = request.url.startsWith(`${options.baseUrl}/`)
            ? request.url
            : withoutQuery(request.url);
          logger.debug(`→ ${request.method} ${shown}`, { headers: request.headers });
          return baseFetch(input, init);
        }
      : baseFetch;
    const defaultHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.defaultHeaders)) {
      defaultHeaders[name.toLowerCase()] = value;
    }
    this.#defaultHeaders = defaultHeaders;
    this.#hasDefaultHeaders = Object.keys(defaultHeaders).length > 0;
    // Retries are the transport's own loop (see retry.ts): ky makes one attempt per call.
    this.#ky = ky.create({ fetch, retry: 0 });
    this.#warn = logger.enabled('warn');
  }

  /** Sends one call and returns its promise; see {@link CallSpec}. */
  call<S extends Schema | undefined>(
    spec: CallSpecInput<S>,
    context: CallContext = {},
    options?: RequestOptions,
  ): APIPromise<CallResult<S>> {
    return apiPromise(
      this.#send(spec, context, options, 0) as Promise<WithResponse<CallResult<S>>>,
    );
  }

  async #send(
    input: CallSpecInput<Schema | undefined>,
    context: CallContext,
    options: RequestOptions | undefined,
    redirects: number,
  ): Promise<WithResponse<unknown>> {
    // A resource's spec function is synchronous but for multipart bodies: await only a promise.
    const made = typeof input === 'function' ? input() : input;
    const built = withExtraFields('then' in made ? await made : made, options);
    const spec: CallSpec = built.form ? { ...built, form: await built.form } : built;
    const settings = options ? callSettings(this.options, options) : this.#settings;
    const started = Date.now();
    const absolute = /^https?:\/\//i.test(spec.path);
    const url = absolute ? spec.path : `${this.options.baseUrl}${spec.path}`;
    // Named without the query: a pre-signed file URL carries its signature there.
    const shown = absolute ? withoutQuery(url) : url;
    const identity: RequestIdentity = {
      method: spec.method,
      path: shown.startsWith(this.options.baseUrl)
        ? shown.slice(this.options.baseUrl.length)
        : shown,
    };
    // A path from `/` stays on baseUrl's origin; only other URLs need parsing to tell.
    const onOrigin =
      (!absolute && spec.path.startsWith('/')) || new URL(url).origin === this.options.origin;
    const authenticate = spec.authenticate !== false && onOrigin;
    if (this.#debug) {
      this.options.logger.debug(`${spec.method} ${identity.path}`, {
        query: spec.query,
        body: spec.json ?? (spec.form ? [...(spec.form as FormData).keys()] : undefined),
      });
    }

    let clientToken = authenticate
      ? (this.tokens.known() ?? (await this.#clientToken(identity)))
      : undefined;
    const bearer =
      authenticate && context.bearer
        ? (knownToken(context.bearer) ?? (await this.#bearer(context.bearer)))
        : undefined;
    // The seller's token stays among the known secrets while its call runs, however many others pass.
    const release = bearer === undefined ? undefined : holdSecret(bearer);
    let result!: WithResponse<unknown>;
    try {
      let renewed = false;
      let replayed = false;
      for (;;) {
        const elapsed = Date.now() - started;
        try {
          result = await this.#attempt(spec, url, identity, {
            onOrigin,
            clientToken,
            bearer,
            options,
            started,
            timeout: settings.timeout,
            totalTimeout: settings.totalTimeout - elapsed,
            maxRetries: settings.maxRetries,
            maxResponseBytes: settings.maxResponseBytes,
          });
          if (this.#info) {
            this.options.logger.info(
              `${spec.method} ${identity.path} → ${result.response.status} (${Date.now() - started} ms)`,
            );
          }
          if (bearer !== undefined && this.tokens.hasRefusedBearers) this.tokens.acquit(bearer);
          break;
        } catch (error) {
          if (!(error instanceof AuthenticationError) || clientToken === undefined) throw error;
          // One re-login and one replay on a refused token the SDK can renew, unless the seller's
          // token is the one known at fault; it is not a retry, and a second 401 surfaces. The
          // service did not act on a request it refused, so any call may replay.
          if (
            !renewed &&
            !(bearer !== undefined && this.tokens.isRefusedBearer(bearer)) &&
            settings.totalTimeout - (Date.now() - started) > 0
          ) {
            renewed = true;
            const fresh = await this.tokens.renew(clientToken);
            if (fresh !== undefined) {
              this.options.logger.info(
                `client token refused; replaying ${spec.method} ${identity.path} with a new one`,
              );
              clientToken = fresh;
              replayed = true;
              continue;
            }
          }
          // A fresh client token refused too: the seller's token is at fault, and its next calls
          // do not log in again for it.
          if (bearer === undefined) throw withAuthHint(error, 'client');
          if (replayed) this.tokens.refuseBearer(bearer);
          throw withAuthHint(
            error,
            replayed || this.tokens.isRefusedBearer(bearer) ? 'seller' : 'either',
          );
        }
      }
    } finally {
      release?.();
    }
    // Redirects reach here unfollowed: fetch would carry the client token, the login's secret and
    // `defaultHeaders` to another origin, so each hop decides credentials anew.
    const { response } = result;
    if (!REDIRECT_STATUSES.has(response.status) || result.data !== response) return result;
    await response.body?.cancel();
    const next = redirectTarget(response, url);
    if (next === undefined) {
      throw makeAPIError(
        identity,
        response.status,
        undefined,
        response.headers,
        'redirect without a usable Location',
      );
    }
    if (spec.authenticate === false && new URL(next).origin !== this.options.origin) {
      // The login's body is the client secret: it goes to baseUrl's origin or nowhere.
      throw makeAPIError(
        identity,
        response.status,
        undefined,
        response.headers,
        `redirected to another origin (${new URL(next).origin}); not followed: credentials go only to ${this.options.origin}`,
      );
    }
    if (redirects >= MAX_REDIRECTS) {
      throw new APIConnectionError(identity, `more than ${MAX_REDIRECTS} redirects`);
    }
    // As fetch does: 303, and 301/302 after a POST, continue as a GET without the body.
    const asGet =
      response.status === 303 ||
      (spec.method === 'POST' && (response.status === 301 || response.status === 302));
    const hop: CallSpec = asGet
      ? { ...spec, method: 'GET', path: next, json: undefined, form: undefined }
      : { ...spec, path: next };
    return this.#send(hop, context, options, redirects + 1);
  }

  /** The seller's token from its function; a function that fails or returns no usable token is bad input. */
  async #bearer(source: TokenSource): Promise<string> {
    try {
      return await resolveToken(source);
    } catch (error) {
      if (error instanceof PartnerError) throw error;
      throw new RequestValidationError('Invalid forUser() token', [
        {
          path: ['publicToken'],
          message: error instanceof Error ? error.message : String(error),
          code: 'invalid_token',
        },
      ]);
    }
  }

  async #clientToken(identity: RequestIdentity): Promise<string> {
    try {
      return await this.tokens.current();
    } catch (error) {
      if (error instanceof PartnerError) throw error;
      throw new APIConnectionError(identity, `could not obtain a client token: ${String(error)}`, {
        cause: error,
      });
    }
  }

  async #attempt(
    spec: CallSpec,
    url: string,
    identity: RequestIdentity,
    call: {
      /** Whether the URL is on `baseUrl`'s origin: only then do `defaultHeaders` go too. */
      onOrigin: boolean;
      clientToken: string | undefined;
      bearer: string | undefined;
      options: RequestOptions | undefined;
      /** When the call started (`Date.now()`): a reconciliation looks for effects since then. */
      started: number;
      timeout: number;
      totalTimeout: number;
      maxRetries: number;
      maxResponseBytes: number;
    },
  ): Promise<WithResponse<unknown>> {
    // A plain object with lower-case names: ky merges it without building `Headers` of its own.
    // The SDK's own headers come last, so neither `defaultHeaders` nor per-call ones override them.
    // `defaultHeaders` may carry a partner's own secrets (a gateway key): like the SDK's
    // credentials they go to `baseUrl`'s origin only, never to a pre-signed file elsewhere.
    const accept = spec.raw ? '*/*' : 'application/json';
    const extra = call.options?.headers;
    const defaults = call.onOrigin && this.#hasDefaultHeaders;
    let headers: Record<string, string>;
    if (extra || defaults) {
      headers = defaults ? { ...this.#defaultHeaders } : {};
      if (extra) for (const name of Object.keys(extra)) headers[name.toLowerCase()] = extra[name]!;
      headers.accept = accept;
      headers['user-agent'] = USER_AGENT;
    } else {
      headers = { accept, 'user-agent': USER_AGENT };
    }
    if (call.clientToken !== undefined) headers['x-api-client-token'] = call.clientToken;
    if (call.bearer !== undefined) headers.authorization = `Bearer ${call.bearer}`;

    const userSignal = call.options?.signal;
    if (userSignal?.aborted)
      throw new APIUserAbortError('The call was aborted before it started.', {
        cause: userSignal.reason,
      });
    const deadline = Date.now() + call.totalTimeout;

    try {
      // ky bounds each attempt up to the response headers and aborts on the caller's signal;
      // `readBody` bounds the rest of the attempt. No controller of our own: tying one to ky's costs every call
      // more than all the SDK's other work together (issue 8).
      // Only what varies per call; ky merges every key of these options on every call.
      const request: KyOptions = { headers };
      // GET is ky's default method: one option fewer to merge.
      if (spec.method !== 'GET') request.method = spec.method;
      if (userSignal) request.signal = userSignal;
      if (spec.json !== undefined) request.json = spec.json;
      if (spec.form) request.body = spec.form as FormData;
      // Every call sees its redirects and follows them through #send, deciding credentials (the
      // login's body, `defaultHeaders`) per origin: fetch would carry them anywhere.
      request.redirect = 'manual';
      if (spec.acceptStatus) {
        const accepted = spec.acceptStatus;
        request.throwHttpErrors = (status) =>
          !(accepted.includes(status) || REDIRECT_STATUSES.has(status));
      } else {
        request.throwHttpErrors = throwUnlessRedirect;
      }
      let target = url;
      if (spec.query) {
        // A URL with a query or fragment of its own (a pre-signed file) is left for ky to extend.
        if (/[?#]/.test(url)) request.searchParams = definedParams(spec.query);
        else target = withQuery(url, spec.query);
      }
      let response: Response;
      let text = '';
      for (let retry = 0; ; ) {
        const attemptStarted = Date.now();
        const left = Math.max(1, deadline - attemptStarted);
        request.timeout = Math.min(call.timeout, left);
        request.totalTimeout = left;
        try {
          response = await this.#ky(target, request);
          // A raw response's body is the caller's to stream; a redirect's is never read.
          if (!spec.raw && !REDIRECT_STATUSES.has(response.status)) {
            const attemptEnds = attemptStarted + Math.min(call.timeout, left);
            text = await readBody(response, attemptEnds, call.maxResponseBytes, userSignal);
          }
          break;
        } catch (error) {
          const now = Date.now();
          const wait =
            retry < call.maxRetries
              ? retryDelay(
                  error,
                  spec.replay,
                  retry + 1,
                  timeForWait(error, deadline - now, now - attemptStarted),
                )
              : undefined;
          if (wait === undefined) throw error;
          retry++;
          if (this.#warn) {
            this.options.logger.warn(
              `retrying ${spec.method} ${withoutQuery(url)} after ${retryReason(error)} (retry ${retry}, waiting ${Math.round(wait)} ms)`,
            );
          }
          await sleep(wait, userSignal);
          if (spec.reconcile && mayHaveActed(error)) {
            const found = await this.#reconcile(spec.reconcile, identity, error, call, deadline);
            if (found) return found;
          }
        }
      }
      // A raw response's body is the caller's to stream (time-outs stop at the headers, and
      // `maxResponseBytes` does not apply); a redirect is handed back unread for #send to follow.
      if (REDIRECT_STATUSES.has(response.status)) {
        return { data: response, response };
      }
      if (spec.raw) {
        const delivered = userSignal ? abortableResponse(response, userSignal) : response;
        return { data: delivered, response: delivered };
      }
      const data = parseBody(text);
      if (this.#debug) {
        this.options.logger.debug(`← ${response.status} ${spec.method} ${identity.path}`, {
          body: data,
        });
      }
      return {
        data: this.#validate(spec.schema, data, identity, response.status, spec.callerSchema),
        response,
      };
    } catch (error) {
      throw toPartnerError(error, identity, userSignal, call);
    }
  }

  /**
   * Asks whether the lost attempt (`error`) already acted, before the replay: a result found ends
   * the call; a failure to find out ends it too, with {@link OutcomeUnknownError}, never a blind replay.
   */
  async #reconcile(
    reconciliation: Reconciliation,
    identity: RequestIdentity,
    error: unknown,
    call: {
      started: number;
      timeout: number;
      options: RequestOptions | undefined;
      maxRetries: number;
      maxResponseBytes: number;
    },
    deadline: number,
  ): Promise<WithResponse<unknown> | undefined> {
    const since = new Date(call.started);
    const signal = call.options?.signal;
    try {
      const { data, response } = await reconciliation
        .find(since, {
          ...(signal ? { signal } : {}),
          timeout: call.timeout,
          totalTimeout: Math.max(1, deadline - Date.now()),
          maxRetries: call.maxRetries,
          maxResponseBytes: call.maxResponseBytes,
        })
        .withResponse();
      return data === undefined ? undefined : { data: new Recovered(data), response };
    } catch (failure) {
      if (failure instanceof APIUserAbortError) throw failure;
      const lost = toPartnerError(error, identity, signal, {
        timeout: call.timeout,
        totalTimeout: deadline - call.started,
      });
      throw new OutcomeUnknownError(identity, reconciliation.uncertain, since, lost, failure);
    }
  }

  #validate(
    schemaOrChoice: Schema | ((status: number, body: unknown) => Schema | undefined) | undefined,
    body: unknown,
    identity: RequestIdentity,
    status: number,
    callerSchema: boolean | undefined,
  ): unknown {
    if (!schemaOrChoice || this.options.validateResponses === 'off') return body;
    const schema =
      typeof schemaOrChoice === 'function' ? schemaOrChoice(status, body) : schemaOrChoice;
    if (!schema) return body;
    if (!callerSchema && acceptsFast(schema, body)) return body;
    const result = safeParse(schema, body);
    if (result.success) return result.data;
    const error = new ResponseValidationError(
      identity,
      status,
      body,
      toIssues(result.error.issues),
    );
    if (this.options.validateResponses === 'strict') throw error;
    this.options.logger.warn(error.message, { issues: error.issues });
    return body;
  }

  async #login(clientId: string, clientSecret: string): Promise<string> {
    const { data } = await this.call({
      method: 'POST',
      path: LOGIN.path,
      json: LOGIN.body(clientId, clientSecret),
      replay: 'always',
      authenticate: false,
    })
      .withResponse()
      .catch((error: unknown) => {
        if (
          error instanceof APIError &&
          (error.status === 401 || error.status === 422 || error.status === 400)
        ) {
          throw makeAPIError(
            { method: 'POST', path: LOGIN.path },
            error.status,
            error.body,
            error.headers,
            'login refused: check clientId and clientSecret',
          );
        }
        throw error;
      });
    const token = LOGIN.readToken(data);
    if (token === undefined) {
      throw new ResponseValidationError({ method: 'POST', path: LOGIN.path }, 200, data, [
        {
          path: ['client_token'],
          message: 'the login response carries no client_token',
          code: 'invalid_type',
        },
      ]);
    }
    return token;
  }
}

function definedParams(query: QueryParams): Record<string, string> {
  const result: Record<string, string> = {};
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value !== undefined) result[key] = String(value);
  }
  return result;
}

/**
 * `url` (no query, no fragment) with the query's defined parameters, each name and value through
 * `encodeURIComponent` (cheaper per call than `URLSearchParams`; a space is `%20`, which servers
 * read as `+` writes it). ky then builds its `Request` from the URL once.
 */
function withQuery(url: string, query: QueryParams): string {
  let search = '';
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value === undefined) continue;
    search += `${search ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
  }
  return url + search;
}

/** `url` without its query and fragment: how errors and logs name a URL (a pre-signed one keeps its signature there). */
function withoutQuery(url: string): string {
  return url.replace(/[?#].*$/s, '');
}

/** The absolute http(s) URL a redirect response points to, or `undefined` when it is none. */
function redirectTarget(response: Response, from: string): string | undefined {
  const location = response.headers.get('location');
  if (!REDIRECT_STATUSES.has(response.status) || !location) return undefined;
  try {
    const target = new URL(location, from);
    return target.protocol === 'http:' || target.protocol === 'https:' ? target.href : undefined;
  } catch {
    return undefined;
  }
}

/** JSON when it parses, the text itself otherwise (HTML error pages, plain text), `undefined` when empty. */
export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** zod issues reduced to what the SDK's errors keep. */
export function toIssues(
  issues: ReadonlyArray<ZodIssueLike>,
  prefix: ReadonlyArray<PropertyKey> = [],
): ValidationIssue[] {
  return issues.flatMap(({ path, message, code, errors }) => {
    // A union reports only "Invalid input" at its own path; the alternative that came closest
    // (fewest issues) says what is actually wrong, field by field.
    if (code === 'invalid_union' && errors && errors.length > 0) {
      const closest = errors.reduce((best, next) => (next.length < best.length ? next : best));
      if (closest.length > 0) return toIssues(closest, [...prefix, ...path]);
    }
    return [{ path: [...prefix, ...path], message, code }];
  });
}

/** The parts of a zod issue the SDK keeps (`errors`: one issue list per alternative of a union). */
interface ZodIssueLike {
  path: PropertyKey[];
  message: string;
  code: string;
  errors?: ReadonlyArray<ReadonlyArray<ZodIssueLike>>;
}

const AUTH_HINTS = {
  client:
    'the client token was refused; if this endpoint acts for a seller, call it on client.forUser(publicToken)',
  seller:
    "the seller's public token was refused (a fresh client token was refused with it too): check the token given to forUser",
  either: "the client token or the seller's public token was refused",
} as const;

/** The 401 with a hint saying which token the service refused. */
function withAuthHint(error: APIError, refused: keyof typeof AUTH_HINTS): APIError {
  return makeAPIError(
    { method: error.method, path: error.path },
    error.status,
    error.body,
    error.headers,
    `${bodyMessage(error.body) ?? 'unauthorized'} (${AUTH_HINTS[refused]})`,
  );
}

function toPartnerError(
  error: unknown,
  identity: RequestIdentity,
  userSignal: AbortSignal | undefined,
  call: { timeout: number; totalTimeout: number },
): unknown {
  if (error instanceof PartnerError) return error;
  if (isHTTPError(error)) {
    return makeAPIError(identity, error.response.status, error.data, error.response.headers);
  }
  if (userSignal?.aborted) {
    return new APIUserAbortError(`${identity.method} ${identity.path} was aborted by the caller.`, {
      cause: userSignal.reason,
    });
  }
  if (error instanceof BodyTooLarge) {
    return new ResponseTooLargeError(identity, error.limit);
  }
  if (isTimeoutError(error) || error instanceof BodyTimeout) {
    return new APIConnectionTimeoutError(
      identity,
      `no complete response in time (timeout ${call.timeout} ms per attempt, ${Math.round(call.totalTimeout)} ms for the call)`,
    );
  }
  if (isNetworkError(error)) {
    // Keep the runtime's error (ECONNREFUSED, ECONNRESET…), never ky's, which holds the request headers.
    const cause = error.cause;
    return new APIConnectionError(identity, `connection failed: ${describeCause(cause)}`, {
      cause: redactedCause(cause),
    });
  }
  return new APIConnectionError(identity, `request failed: ${describeCause(error)}`, {
    cause: redactedCause(error),
  });
}

/**
 * The error as a cause that quotes no secret: fetch's own errors may quote a header value (a token),
 * so one whose message holds a known secret is replaced by a copy with it masked.
 */
function redactedCause(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const message = redactText(error.message);
  if (message === error.message) return error;
  const copy = new Error(message);
  copy.name = error.name;
  return copy;
}

function describeCause(cause: unknown): string {
  const code =
    (cause as { cause?: { code?: unknown } })?.cause?.code ?? (cause as { code?: unknown })?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return typeof code === 'string' ? `${code} (${message})` : message;
}
