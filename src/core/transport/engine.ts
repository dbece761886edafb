/**
 * The engine that turns a call description (`CallSpec`) into HTTP, running it through the module
 * of each concern in order: `call-spec.ts` (path, params and replay rule settled), `request.ts`
 * (where it goes, headers, credentials), `../auth/` (the client token; here the one re-login after
 * a refused token), `attempts.ts` (the attempt loop, with `../retry/`), `body.ts` (the body read
 * within time and size), `../validation/` (the response checked), `redirects.ts` (each hop a
 * call of its own) and `../errors/mapping.ts` (every failure as one of the SDK's error classes).
 */

import ky, { type KyInstance } from 'ky';
import { TelemetrySource } from '../../telemetry/gate';
import type { CallScope } from '../../telemetry/types';
import { awaitCredentials, type Credentials, knownCredentials, refusal } from '../auth/credentials';
import { clientTokens } from '../auth/login';
import type { ClientTokenManager } from '../auth/token-manager';
import {
  callFacts,
  type PendingTelemetry,
  type Tracing,
  traced,
  tracedReconciliation,
} from '../call-telemetry';
import { AuthenticationError } from '../errors';
import { tokenFailure, toPartnerError } from '../errors/mapping';
import { CallLog, loggedFetch } from '../logging/call-log';
import { holdSecret } from '../logging/known-secrets';
import type { RequestOptions, ResolvedOptions } from '../options';
import { checkRequestOptions } from '../options/request-options-shape';
import { type CallSettings, callSettings } from '../options/resolve';
import { type BoundPace, bindPace } from '../pace/bind';
import { beforeSending } from '../retry/classify';
import { retryAfterAsked } from '../retry/policy';
import { findLostEffect, Recovered } from '../retry/reconcile';
import { withinCall } from '../time/bounded-wait';
import { type Clock, systemClock } from '../time/clock';
import { loadCompiler, validateResponse } from '../validation';
import { abortableResponse } from './abortable-response';
import { type APIPromise, apiPromise, type WithResponse } from './api-promise';
import { type AttemptOutcome, runAttempts } from './attempts';
import {
  type CallContext,
  type CallResult,
  type CallSpecInput,
  madeInTime,
  type ReadyCallSpec,
  readySpec,
  type Schema,
} from './call-spec';
import { isRedirect, nextHop } from './redirects';
import { attemptHeaders, kyRequest, lowerCaseNames, type Target, targetOf } from './request';

/** One call on its way: what it is, where it goes, and its bounds. */
interface Call {
  spec: ReadyCallSpec;
  target: Target;
  settings: CallSettings;
  options: RequestOptions | undefined;
  /** When the call started, on the transport's clock. */
  started: number;
  /** Its span and metrics, when telemetry records. */
  trace: CallScope | undefined;
}

/** The HTTP engine of one client configuration; clients derived with `withOptions` share its tokens. */
export class Transport {
  readonly options: ResolvedOptions;
  readonly tokens: ClientTokenManager;
  /** ky with everything static about a call, so that its per-call option merging stays small. */
  readonly #ky: KyInstance;
  /** `defaultHeaders` with lower-case names, so that the SDK's own headers override them. */
  readonly #defaultHeaders: Readonly<Record<string, string>>;
  /** The client's own time-outs and retries: what a call without options runs on. */
  readonly #settings: CallSettings;
  readonly #clock: Clock;
  readonly #log: CallLog;
  readonly #telemetry: TelemetrySource;
  readonly #pace: BoundPace | undefined;

  constructor(options: ResolvedOptions, tokens?: ClientTokenManager, clock: Clock = systemClock) {
    this.options = options;
    this.#clock = clock;
    this.tokens = tokens ?? clientTokens(options, (spec) => this.call(spec), clock);
    this.#settings = callSettings(options, undefined);
    this.#log = new CallLog(options.logger);
    this.#telemetry = new TelemetrySource(options.telemetry);
    if (options.validateResponses !== 'off') void loadCompiler();
    this.#pace = options.pace && bindPace(options.pace, options);
    this.#defaultHeaders = lowerCaseNames(options.defaultHeaders);
    // Retries and error statuses are the attempt loop's (attempts.ts): ky makes one attempt per call.
    this.#ky = ky.create({ fetch: loggedFetch(options), retry: 0, throwHttpErrors: false });
  }

  /** The telemetry recording now (see `TelemetrySource.current`): polls and walks record with it. */
  telemetry(): PendingTelemetry {
    return this.#telemetry.current();
  }

  /** Sends one call and returns its promise; see `CallSpec`. */
  call<S extends Schema | undefined>(
    spec: CallSpecInput<S>,
    context: CallContext = {},
    options?: RequestOptions,
  ): APIPromise<CallResult<S>> {
    const telemetry = this.#telemetry.current();
    const sent = telemetry
      ? traced(telemetry, spec, (tracing) => this.#send(spec, context, options, 0, tracing))
      : this.#send(spec, context, options, 0);
    return apiPromise(sent as Promise<WithResponse<CallResult<S>>>);
  }

  async #send(
    input: CallSpecInput<Schema | undefined> | ReadyCallSpec,
    context: CallContext,
    options: RequestOptions | undefined,
    hops: number,
    tracing?: Tracing,
  ): Promise<WithResponse<unknown>> {
    // The extra fields go into the call once, not again into each of its redirects; a call's own
    // options are checked before anything is sent, as the client's were.
    if (hops === 0) checkRequestOptions(options);
    const settings = options ? callSettings(this.options, options) : this.#settings;
    const ready = readySpec(input, hops === 0 ? options : undefined, {
      strings: this.options.assumptions.strings,
      warnOnce: (message) => this.#log.warnOnce(message),
      maxUploadBytes: settings.maxUploadBytes,
    });
    const started = this.#clock.now();
    // A multipart body is read into memory first: within the call's bounds, as its attempts are.
    const spec =
      'then' in ready
        ? await madeInTime(input, ready, settings.totalTimeout, options?.signal)
        : ready;
    const target = targetOf(spec, this.options.baseUrl, this.options.origin);
    if (tracing) tracing.scope ??= tracing.telemetry.call(callFacts(spec, target));
    const call: Call = { spec, target, settings, options, started, trace: tracing?.scope };
    this.#log.request(call.spec, call.target);
    const { trace } = call;
    const result = await (trace
      ? trace.run(() => this.#authenticated(call, context))
      : this.#authenticated(call, context));
    // A redirect comes back unread and unfollowed: each hop is a call that decides credentials anew.
    if (!isRedirect(result.response.status) || result.data !== result.response) return result;
    const from = { ...call.target, origin: this.options.origin, hops };
    const hop = await nextHop(spec, result.response, from);
    return this.#send(hop, context, options, hops + 1, tracing);
  }

  /**
   * The call with its credentials, and one re-login and replay when the service refuses a client
   * token the SDK can renew: not a retry (the service did not act on a request it refused, so any
   * call may replay), and a second 401 surfaces; a token function failing meanwhile is bad input.
   */
  async #authenticated(call: Call, context: CallContext): Promise<WithResponse<unknown>> {
    const found = this.#credentials(call, context);
    const credentials = found instanceof Promise ? await this.#inTime(call, found) : found;
    const { bearer } = credentials;
    // The seller's token stays among the known secrets while its call runs, however many others pass.
    const release = bearer === undefined ? undefined : holdSecret(bearer);
    try {
      for (let replayed = false; ; replayed = true) {
        try {
          const result = await this.#attempts(call, credentials);
          const status = result.data instanceof Recovered ? undefined : result.response.status;
          this.#log.answer(call.target, status, this.#clock.now() - call.started);
          if (bearer !== undefined) this.tokens.acquit(bearer);
          return result;
        } catch (error) {
          if (!(error instanceof AuthenticationError) || credentials.clientToken === undefined) {
            throw error;
          }
          // The call's line, held back by `#attempts` while a renewal could replay it, is said here.
          const fresh = replayed
            ? undefined
            : await this.#renewable(call, credentials).catch((failure: unknown) => {
                throw this.#ended(call, tokenFailure(failure, call.target.identity));
              });
          if (fresh === undefined) {
            throw this.#ended(call, refusal(this.tokens, error, bearer, replayed));
          }
          credentials.clientToken = fresh;
        }
      }
    } finally {
      release?.();
    }
  }

  /** The call's credentials (none off `baseUrl`'s origin): at once when nothing is awaited for them. */
  #credentials(call: Call, context: CallContext): Credentials | Promise<Credentials> {
    const authenticate = call.spec.authenticate !== false && call.target.onOrigin;
    if (!authenticate) return { clientToken: undefined, bearer: undefined };
    const { bearer } = context;
    return (
      knownCredentials(this.tokens, bearer) ??
      awaitCredentials(this.tokens, bearer, call.target.identity, () => {
        if (this.options.clientToken === undefined) call.trace?.decision('login');
      })
    );
  }

  /** `waited`, a wait for credentials, within the call's signal and time left (see `withinCall`). */
  #inTime<T>(call: Call, waited: Promise<T>): Promise<T> {
    const { totalTimeout } = call.settings;
    const leftMs = totalTimeout - (this.#clock.now() - call.started);
    const { signal } = call.options ?? {};
    const bounds = { signal, leftMs, totalTimeout, identity: call.target.identity };
    return beforeSending(withinCall(waited, { ...bounds, what: 'credentials' }));
  }

  /** A new client token to replay with, unless the seller's token is the one known at fault or time is out. */
  async #renewable(call: Call, credentials: Credentials): Promise<string | undefined> {
    const { bearer, clientToken } = credentials;
    if (bearer !== undefined && this.tokens.isRefusedBearer(bearer)) return undefined;
    if (call.settings.totalTimeout - (this.#clock.now() - call.started) <= 0) return undefined;
    const fresh = await this.#inTime(call, this.tokens.renew(clientToken!, bearer === undefined));
    if (fresh !== undefined) {
      this.#log.replay(call.target);
      call.trace?.decision('relogin');
    }
    return fresh;
  }

  /** The call's attempts with these credentials, and its answer read as the call's result. */
  async #attempts(call: Call, credentials: Credentials): Promise<WithResponse<unknown>> {
    const { spec, target, settings, options, trace } = call;
    // A signal that has already fired fails the first attempt at once, as any abort does.
    const signal = options?.signal;
    const deadline = call.started + settings.totalTimeout;
    try {
      const headers = attemptHeaders(
        spec,
        target,
        this.#defaultHeaders,
        options?.headers,
        credentials,
      );
      const { request, target: url } = kyRequest(spec, target.url, headers, signal);
      const plan = { ...settings, spec, target: url, request, deadline, signal };
      const outcome = await runAttempts(this.#ky, plan, {
        clock: this.#clock,
        onRetry: (error, retry, wait) => {
          this.#log.retry(target, error, retry, wait);
          trace?.retry(error, retry, wait, retryAfterAsked(error));
        },
        onAttempt: trace && (() => trace.attempt(callFacts(spec, target, url))),
        reconcile: spec.reconcile && ((error) => this.#reconcile(call, error, deadline)),
        pace: this.#pace,
      });
      return this.#result(call, outcome);
    } catch (error) {
      const failure = toPartnerError(error, target.identity, signal, settings);
      // A refused client token may be renewed and the call replayed: its line waits for that.
      if (failure instanceof AuthenticationError && credentials.clientToken !== undefined) {
        throw failure;
      }
      throw this.#ended(call, failure);
    }
  }

  /** The failure that ends `call`, said in its `info` line. */
  #ended(call: Call, failure: unknown): unknown {
    return this.#log.failed(call.target, failure, this.#clock.now() - call.started);
  }

  /** Whether the lost attempt (`error`) already acted, asked before its replay. */
  async #reconcile(call: Call, error: unknown, deadline: number) {
    const find = () => this.#findLostEffect(call, error, deadline);
    const found = await tracedReconciliation(call.trace, find);
    this.#log.reconciled(call.target, found !== undefined);
    return found;
  }

  #findLostEffect(call: Call, error: unknown, deadline: number) {
    const { settings, options, target } = call;
    return findLostEffect(
      call.spec.reconcile!,
      { error, identity: target.identity, since: new Date(call.started), limits: settings },
      {
        ...settings,
        signal: options?.signal,
        totalTimeout: Math.max(1, deadline - this.#clock.now()),
      },
    );
  }

  /** The call's result from its answer: the response itself (raw, redirect), or its body checked. */
  #result(call: Call, outcome: AttemptOutcome): WithResponse<unknown> {
    if (outcome.found) return outcome.found;
    const { response, body } = outcome;
    const { spec, target, options } = call;
    if (isRedirect(response.status)) return { data: response, response };
    if (spec.raw) {
      const delivered = abortableResponse(response, options, target.identity);
      return { data: delivered, response: delivered };
    }
    this.#log.body(target, response.status, body);
    const answer = { identity: target.identity, status: response.status };
    return { data: validateResponse(spec, body, answer, this.options), response };
  }
}
