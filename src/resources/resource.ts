import type { ResolvedAssumptions } from '../assumptions';
import type { PendingTelemetry } from '../core/call-telemetry';
import type { RequestOptions } from '../core/options';
import type { APIPromise } from '../core/transport/api-promise';
import type {
  CallContext,
  CallResult,
  CallSpec,
  CallSpecInput,
  HttpMethod,
  Schema,
} from '../core/transport/call-spec';
import type { Transport } from '../core/transport/engine';
import type { Route } from '../core/transport/path';
import {
  type EnvelopedOrBare,
  type EnvelopeSchema,
  resultReader,
} from '../schemas/response-fields';

/** A call's response schema, or a function choosing it by status or by the body's shape. */
type ResponseSchema = Schema | ((status: number, body: unknown) => Schema | undefined) | undefined;

/**
 * What a method says about its call besides the HTTP method and the path: its `operation` name,
 * its parameters with their rules, its response schema `R`, and its replay rule where the spec
 * makes it differ from the HTTP method's.
 */
export type Endpoint<R extends ResponseSchema, P extends Schema> = Omit<
  CallSpec<Schema | undefined, P>,
  'method' | 'path' | 'pathParams' | 'template' | 'schema'
> & { schema?: R };

/**
 * The result a method gives for its response schema `R`: the resource inside an envelope (see
 * `envelope` and `envelopedOrBare`), or what the schema (or the one chosen) checks.
 *
 * @inline
 */
export type ResultOf<R> =
  R extends EnvelopeSchema<infer D>
    ? CallResult<D>
    : R extends EnvelopedOrBare<infer D>
      ? CallResult<D>
      : R extends (status: number, body: unknown) => infer Chosen
        ? CallResult<Chosen>
        : CallResult<R>;

/** How a namespace sends its calls, for the client (and seller) it belongs to. */
export class Requester {
  readonly #transport: Transport;
  readonly #context: CallContext;

  /** @internal Built by the client for its namespaces. */
  constructor(transport: Transport, context: CallContext) {
    this.#transport = transport;
    this.#context = context;
  }

  /** The client's assumptions where the spec shows no shape (its `assumptions` option resolved). */
  get assumptions(): ResolvedAssumptions {
    return this.#transport.options.assumptions;
  }

  /** The client's `baseUrl`: a URL the service gives relative is the service's own, read against it. */
  get baseUrl(): string {
    return this.#transport.options.baseUrl;
  }

  /** The client's telemetry now, for the waits and walks that span several calls. */
  telemetry(): PendingTelemetry {
    return this.#transport.telemetry();
  }

  /** Sends `spec` as it is: for the calls whose path or a check can only be known when it runs. */
  call<S extends Schema | undefined>(
    spec: CallSpecInput<S>,
    options?: RequestOptions,
  ): APIPromise<CallResult<S>> {
    return this.#transport.call(spec, this.#context, options);
  }

  /**
   * A `GET` of `path` (a `route`, or a URL the service gave), its result read as its schema says
   * (see {@link ResultOf}).
   */
  get<R extends ResponseSchema, P extends Schema>(
    path: Route | string,
    endpoint: Endpoint<R, P>,
    options?: RequestOptions,
  ): APIPromise<ResultOf<R>> {
    return this.#send('GET', path, endpoint, options);
  }

  /** A `POST` of `path`, as {@link Requester.get}. */
  post<R extends ResponseSchema, P extends Schema>(
    path: Route | string,
    endpoint: Endpoint<R, P>,
    options?: RequestOptions,
  ): APIPromise<ResultOf<R>> {
    return this.#send('POST', path, endpoint, options);
  }

  /** A `PUT` of `path`, as {@link Requester.get}. */
  put<R extends ResponseSchema, P extends Schema>(
    path: Route | string,
    endpoint: Endpoint<R, P>,
    options?: RequestOptions,
  ): APIPromise<ResultOf<R>> {
    return this.#send('PUT', path, endpoint, options);
  }

  #send<R extends ResponseSchema, P extends Schema>(
    method: HttpMethod,
    path: Route | string,
    endpoint: Endpoint<R, P>,
    options: RequestOptions | undefined,
  ): APIPromise<ResultOf<R>> {
    const where = typeof path === 'string' ? { path } : path;
    const sent = this.#transport.call({ method, ...where, ...endpoint }, this.#context, options);
    const read = resultReader(endpoint.schema);
    // The transport checked the body against `schema`; ResultOf says what that makes of it.
    return (read ? sent._map(read) : sent) as APIPromise<ResultOf<R>>;
  }
}

/**
 * Base of every namespace (`client.products`, `client.refunds`…): holds the client's requester.
 *
 * A method's `@throws` names what its own input or the service's data can cause. Any call can
 * also reject with what any request meets, each a `PartnerError`: `AuthenticationError`,
 * `PermissionDeniedError`, `RateLimitError`, `InternalServerError`, another status as `APIError`,
 * `APIConnectionError`, `APIConnectionTimeoutError`, `ResponseTooLargeError`,
 * `ResponseValidationError`, `APIUserAbortError`, and `RequestValidationError` for an empty, `.`
 * or `..` path parameter (nothing sent). The errors guide says when each is thrown.
 */
export abstract class APIResource {
  /** @internal */
  protected readonly _client: Requester;

  /** @internal Namespaces are created by the client; there is no need to build one by hand. */
  constructor(client: Requester) {
    this._client = client;
  }
}
