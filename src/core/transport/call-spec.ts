/**
 * What a resource says about one call (`CallSpec`), and the types around it. Resources describe
 * calls with these; the transport (`transport.ts`) turns them into HTTP.
 */

import type { $ZodType, output } from 'zod/v4/core';
import type { RequestOptions, TokenSource } from '../options';
import type { ReplayPolicy } from '../retry/policy';
import type { Reconciliation } from '../retry/reconcile';
import { withExtraFields } from './extra-fields';

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
  /** The path's template with parameters named (`/products/{productHash}`), for telemetry; see `route`. */
  template?: string | undefined;
  /** What telemetry names the call: the method's name (`refunds.request`). */
  operation?: string | undefined;
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

/** A call spec whose multipart body, if any, is ready to send. */
export type ReadyCallSpec = CallSpec & { form?: FormData | undefined };

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

/**
 * The spec `input` describes, with the call's `extraBody`/`extraQuery` merged in and its multipart
 * body awaited. Synchronous when nothing is a promise (the usual case), so that a plain call waits
 * on nothing before it is sent.
 */
export function readySpec(
  input: CallSpecInput<Schema | undefined>,
  options: RequestOptions | undefined,
): ReadyCallSpec | Promise<ReadyCallSpec> {
  const made = typeof input === 'function' ? input() : input;
  if ('then' in made) return made.then((spec) => withForm(withExtraFields(spec, options)));
  return withForm(withExtraFields(made, options));
}

function withForm(spec: CallSpec): ReadyCallSpec | Promise<ReadyCallSpec> {
  if (!spec.form) return spec as ReadyCallSpec;
  return Promise.resolve(spec.form).then((form) => ({ ...spec, form }));
}
