/**
 * What a resource says about one call (`CallSpec`), and the types around it. Resources describe
 * calls with these; the transport (`engine.ts`) turns them into HTTP, starting here: `readySpec`
 * fills the path, checks the parameters and settles the replay rule before anything is sent.
 */

import type { $ZodType, output } from 'zod/v4/core';
import type { ResolvedAssumptions } from '../../assumptions';
import { RequestValidationError } from '../errors';
import type { RequestOptions, TokenSource } from '../options';
import type { ReplayPolicy } from '../retry/policy';
import type { Reconciliation } from '../retry/reconcile';
import { withinCall } from '../time/bounded-wait';
import { checkParams } from '../validation';
import { unsendableIssues } from '../validation/wire-values';
import { withExtraFields } from './extra-fields';
import { toFormData } from './multipart';
import { fillPath } from './path';

/** HTTP methods the service uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A zod schema (classic or mini) whose output types the call's result. */
export type Schema<T = unknown> = $ZodType<T>;

/** Query parameters of a call; `undefined` values are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/** Everything a resource says about one call. */
export interface CallSpec<
  S extends Schema | undefined = Schema | undefined,
  P extends Schema = Schema,
> {
  /** HTTP method. */
  method: HttpMethod;
  /**
   * Path under `baseUrl` starting with `/`, or an absolute URL. With `pathParams`, a template whose
   * `{name}` placeholders the transport fills, each value checked and percent-encoded (see
   * `route`); without, already encoded.
   */
  path: string;
  /** The values of the `{name}` placeholders of `path`. */
  pathParams?: Record<string, unknown> | undefined;
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
  /** The caller's parameters with their rules: checked before anything is sent, then sent as `query`, `json` or `form`. */
  params?: CallParams<P> | undefined;
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
  /**
   * Whether a failed attempt may be sent again (see {@link ReplayPolicy}); by default as the HTTP
   * method says: `'always'` for `GET`, `PUT` and `DELETE`, `'never'` for the others.
   */
  replay?: ReplayPolicy | undefined;
  /**
   * For a call whose repeat is not harmless in every state: before replaying an attempt the
   * service may have acted on, find out whether it did (see {@link Reconciliation}).
   */
  reconcile?: Reconciliation;
  /** Non-2xx statuses that are results, not errors (the running export's 409). */
  acceptStatus?: readonly number[];
  /**
   * Whether the body of an `acceptStatus` answer is the result; one it refuses throws the error of
   * its status after all (a 409 that carries no running export is a `ConflictError`).
   */
  acceptBody?: (body: unknown) => boolean;
  /** `false` sends no credentials (the login itself); calls outside `baseUrl`'s origin never get them. */
  authenticate?: boolean;
  /**
   * `true` returns the `Response` itself as the result, its body unread (a file download the caller
   * streams); `schema` is then ignored. Error statuses still throw typed errors.
   */
  raw?: boolean;
  /**
   * `true` for a read of a state that changes while the partner waits on it or decides by it (a
   * transaction's refunds, a refund's or an export's status): it asks every cache between for the
   * service's own answer (`Cache-Control: no-cache`). A kept "no refund yet" would have a
   * reconciliation or a job's guard send a second refund, and a kept status a wait never end.
   */
  uncached?: boolean;
}

/**
 * A call's parameters as the caller gave them, with the rules they must pass. The transport checks
 * them with `checkParams` before anything is sent (a broken rule rejects the call with
 * `RequestValidationError` naming the call's `operation`) and sends them as checked: their strings
 * read as the service reads them.
 */
export interface CallParams<P extends Schema = Schema> {
  /** The parameters as the caller gave them. */
  value: unknown;
  /** Their rules (strict, unlike the response schemas). */
  schema: P;
  /** Where they travel: the query string, a JSON body, or a multipart form (nested fields in bracket form). */
  sendAs: 'query' | 'json' | 'form';
  /**
   * Their wire form where it is not what the caller writes (a field the client's assumptions
   * rename, a date range as the service's string); the checked parameters themselves otherwise.
   */
  encode?(checked: output<P>): unknown;
  /**
   * What the spec does not forbid but is likely a mistake: each message is logged as a warning
   * once per client, and the call is sent all the same.
   */
  suspicions?(checked: output<P>): Iterable<string>;
}

/** A call spec as the transport sends it: its path filled, its parameters checked and placed, its replay rule settled. */
export type ReadyCallSpec = Omit<CallSpec, 'form' | 'params' | 'pathParams' | 'replay'> & {
  form?: FormData | undefined;
  replay: ReplayPolicy;
  /**
   * Set on a redirect's hop once the call has been redirected off `baseUrl`'s origin: no later
   * hop carries credentials, even one back on that origin, which another origin chose.
   */
  leftOrigin?: true;
};

/** The replay rule an HTTP method implies: GET, PUT and DELETE may be repeated, POST and PATCH may not. */
export function replayOf(method: HttpMethod): ReplayPolicy {
  return method === 'GET' || method === 'PUT' || method === 'DELETE' ? 'always' : 'never';
}

/** What readying a call needs from its client: how strings are read, and a way to warn once. */
export interface ReadyContext {
  /** The client's `strings` assumption, for the parameters' check. */
  strings: ResolvedAssumptions['strings'];
  /** Logs `message` as a warning, once per client. */
  warnOnce(message: string): void;
  /** The call's `maxUploadBytes`: the largest file its multipart body sends. */
  maxUploadBytes: number;
}

/**
 * A call spec, or a function building it when the call runs: for the few calls whose spec rests on
 * a check of their own (a `Date`, a URL from an earlier answer), so that a failed check becomes a
 * rejected promise (nothing sent) rather than a synchronous throw.
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
 * The spec `input` describes, ready to send: its path filled, its replay rule settled, its params
 * checked and placed, the call's `extraBody`/`extraQuery` merged in and its multipart body awaited. Synchronous when nothing is a promise (the usual case), so that a plain call waits
 * on nothing before it is sent.
 */
export function readySpec(
  input: CallSpecInput<Schema | undefined>,
  options: RequestOptions | undefined,
  context: ReadyContext,
): ReadyCallSpec | Promise<ReadyCallSpec> {
  const made = typeof input === 'function' ? input() : input;
  const ready = (spec: CallSpec) =>
    withForm(
      sendable(
        withExtraFields(withParams(withPath(spec), context), options, context.maxUploadBytes),
      ),
    );
  return 'then' in made ? made.then(ready) : ready(made);
}

/** `spec` with its path filled from `pathParams` (the template kept for telemetry) and its replay rule settled. */
function withPath(spec: CallSpec): CallSpec & { replay: ReplayPolicy } {
  const { pathParams, path } = spec;
  const replay = spec.replay ?? replayOf(spec.method);
  if (pathParams === undefined) return { ...spec, replay };
  return {
    ...spec,
    path: fillPath(path, pathParams),
    template: path,
    pathParams: undefined,
    replay,
  };
}

/** `spec` with its parameters checked and placed where they travel. */
function withParams<T extends CallSpec>(spec: T, context: ReadyContext): T {
  const { params } = spec;
  if (params === undefined) return spec;
  const checked = checkParams(params.schema, params.value, spec.operation ?? '', context.strings);
  for (const message of params.suspicions?.(checked) ?? []) context.warnOnce(message);
  const wire = params.encode ? params.encode(checked) : checked;
  const placed = { ...spec, params: undefined };
  if (params.sendAs === 'query') return { ...placed, query: wire as QueryParams };
  if (params.sendAs === 'json') return { ...placed, json: wire };
  return { ...placed, form: toFormData(wire as Record<string, unknown>, context.maxUploadBytes) };
}

/**
 * `spec` when its query and JSON body hold only values they carry as given; else the call is
 * refused, naming each value: the escape hatches (`extraBody`, `extraQuery`, `request()`) pass no
 * schema, and JSON would send `NaN` or an invalid `Date` as `null` (see `validation/wire-values.ts`).
 */
function sendable<T extends CallSpec>(spec: T): T {
  const { query, json } = spec;
  if (query === undefined && json === undefined) return spec;
  const issues = query === undefined ? [] : unsendableIssues(query, 'query');
  if (json !== undefined) issues.push(...unsendableIssues(json, 'json'));
  if (issues.length === 0) return spec;
  throw new RequestValidationError(`Invalid request for ${spec.method} ${spec.path}`, issues);
}

function withForm(
  spec: CallSpec & { replay: ReplayPolicy },
): ReadyCallSpec | Promise<ReadyCallSpec> {
  if (!spec.form) return spec as ReadyCallSpec;
  return Promise.resolve(spec.form).then((form) => ({ ...spec, form }));
}

/**
 * The spec `readySpec` is still making (a multipart body's streams read into memory), within the
 * call's bounds: the caller's `signal` and its `totalTimeout`, as its attempts will be.
 */
export function madeInTime(
  input: CallSpecInput<Schema | undefined> | ReadyCallSpec,
  ready: Promise<ReadyCallSpec>,
  totalTimeout: number,
  signal: AbortSignal | undefined,
): Promise<ReadyCallSpec> {
  const made = typeof input === 'function' ? undefined : input;
  const identity = { method: made?.method ?? 'GET', path: made?.template ?? made?.path ?? '' };
  const bounds = { signal, leftMs: totalTimeout, totalTimeout, identity };
  return withinCall(ready, { ...bounds, what: 'request body' });
}
