/**
 * Fault injection: scripted failures (`failNext`) and connection drops (`dropNext`), consumed in
 * the order they were added by the requests they match.
 *
 * @module
 */

import { API_PREFIX } from './router';

/** Options of `mock.failNext`. */
export interface FailNextOptions {
  /**
   * Status to answer with, 200 to 599. Omit it to only delay (with `delayMs`) and then answer
   * normally. 204, 205 and 304 are answered without a body, as HTTP has them.
   */
  status?: number;
  /** How many matching requests the fault applies to, at least 1. Default 1. */
  times?: number;
  /**
   * `Retry-After` header value: whole seconds, or a string sent as it is (an HTTP date, or a
   * malformed value to test how a client reads one).
   */
  retryAfter?: number | string;
  /** Wait this long before answering (aborted with the request's signal or socket). */
  delayMs?: number;
  /** Response body (JSON). Default `{ message }` with a text for the status; none for 204, 205, 304. */
  body?: unknown;
  /**
   * Only requests to this path (relative to the API base, e.g. `/auth`; no query; a trailing slash
   * is ignored, as the router ignores it) or matching this pattern. A path no request could have
   * (a full URL, one under `/api/v1`, one with a query) is refused when the fault is queued.
   */
  path?: string | RegExp;
  /** Only requests with this method (`GET`, `post`: any case). */
  method?: string;
}

/** Options of `mock.dropNext`. */
export interface DropNextOptions {
  /** How many matching requests to drop. Default 1. */
  times?: number;
  /**
   * Let the request reach its route first, then drop the connection instead of answering: the
   * service acts (a refund is requested, an offer saved) and its answer is lost, as when a
   * connection breaks on the way back. Default `false`: the request is dropped on arrival and
   * nothing acts.
   */
  afterHandling?: boolean;
  /** Only requests to this path (relative to the API base) or matching this pattern, as `failNext`'s. */
  path?: string | RegExp;
  /** Only requests with this method (any case). */
  method?: string;
}

/** A fault that matched a request. */
export type Fault =
  | ({ kind: 'fail'; remaining: number } & FailNextOptions)
  | ({ kind: 'drop'; remaining: number } & DropNextOptions);

function matches(fault: Fault, method: string, path: string): boolean {
  if (fault.method && fault.method !== method) return false;
  if (fault.path === undefined) return true;
  return typeof fault.path === 'string' ? fault.path === path : fault.path.test(path);
}

/** Statuses HTTP answers without a body (a `Response` cannot carry one with them). */
export const NO_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

/** Whether `value` is absent or a number that passes `ok`. */
const absentOr = (value: unknown, ok: (n: number) => boolean) =>
  value === undefined || (typeof value === 'number' && ok(value));

/**
 * Refuses, when it is queued, a fault no answer could carry: a status outside 200 to 599 (what
 * a `Response` can hold), a body with a status that carries none, a `times` below 1, a negative
 * delay or `Retry-After`.
 */
function checked(options: FailNextOptions & DropNextOptions, name: string): void {
  const problems: Array<[string, boolean]> = [
    ['status', absentOr(options.status, (n) => Number.isInteger(n) && n >= 200 && n <= 599)],
    ['times', absentOr(options.times, (n) => Number.isInteger(n) && n >= 1)],
    ['delayMs', absentOr(options.delayMs, (n) => Number.isFinite(n) && n >= 0)],
    // HTTP's delay-seconds is a whole number; a string is the partner's to shape.
    [
      'retryAfter',
      typeof options.retryAfter === 'string' ||
        absentOr(options.retryAfter, (n) => Number.isSafeInteger(n) && n >= 0),
    ],
  ];
  const [field] = problems.find(([, ok]) => !ok) ?? [];
  if (field === undefined) {
    const { status, body } = options as FailNextOptions;
    if (body !== undefined && status !== undefined && NO_BODY_STATUSES.has(status)) {
      throw new RangeError(
        `${name}: body cannot be given with status ${status}, which carries none`,
      );
    }
    return;
  }
  const value = String((options as Record<string, unknown>)[field]);
  throw new RangeError(`${name}: ${field} cannot be ${value}`);
}

/** An HTTP method as a request line carries it (RFC 9110 §9.1: a token). */
const METHOD_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The path a fault names, as requests are matched, or a `TypeError` for one no request could have:
 * a fault that never fires would let a test pass without the failure it meant to cause.
 */
function pathMatcher(path: unknown, name: string): string | RegExp | undefined {
  if (path === undefined) return undefined;
  if (path instanceof RegExp) {
    // A global or sticky pattern resumes where it last matched, so it would skip every other request.
    return path.global || path.sticky
      ? new RegExp(path.source, path.flags.replace(/[gy]/g, ''))
      : path;
  }
  if (typeof path !== 'string') {
    throw new TypeError(`${name}: path must be a string or a RegExp, got ${typeof path}`);
  }
  const underPrefix = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
  if (!path.startsWith('/') || /[?#]/.test(path) || underPrefix) {
    throw new TypeError(
      `${name}: path must be a path under the API base without its query, such as '/products', got '${path}'`,
    );
  }
  // The router ignores a trailing slash (`/products/` is `/products`): so does the matching.
  return path.replace(/(.)\/+$/, '$1');
}

/** The fields of `options` that say which requests a fault takes, checked and in matching form. */
function matchersOf(options: FailNextOptions & DropNextOptions, name: string) {
  const { method } = options;
  if (method !== undefined && (typeof method !== 'string' || !METHOD_TOKEN.test(method))) {
    throw new TypeError(
      `${name}: method must be an HTTP method such as 'GET', got ${typeof method === 'string' ? `'${method}'` : typeof method}`,
    );
  }
  return { path: pathMatcher(options.path, name), method: method?.toUpperCase() };
}

/** Refuses a `Retry-After` string no header can carry, or a body that is no JSON, when queued. */
function checkCarried({ retryAfter, body }: FailNextOptions, name: string): void {
  if (typeof retryAfter === 'string') {
    try {
      new Headers({ 'retry-after': retryAfter });
    } catch {
      throw new TypeError(
        `${name}: retryAfter cannot be sent in a header: ${JSON.stringify(retryAfter)}`,
      );
    }
  }
  if (body === undefined) return;
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    throw new TypeError(`${name}: body must be JSON: ${(error as Error).message}`);
  }
  if (text === undefined) throw new TypeError(`${name}: body must be JSON, got a ${typeof body}`);
}

/** Refuses options given as something other than an object, naming the call. */
function checkObject(options: unknown, name: string): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${name}: the options must be an object, got ${String(options)}`);
  }
}

/** The queue of pending faults. */
export class FaultQueue {
  private readonly pending: Fault[] = [];

  /** Queues a scripted failure. */
  fail(options: FailNextOptions): void {
    checkObject(options, 'failNext');
    checked(options, 'failNext');
    checkCarried(options, 'failNext');
    const matchers = matchersOf(options, 'failNext');
    this.pending.push({ kind: 'fail', ...options, ...matchers, remaining: options.times ?? 1 });
  }

  /** Queues a connection drop. */
  drop(options: DropNextOptions): void {
    checkObject(options, 'dropNext');
    checked(options, 'dropNext');
    const { afterHandling } = options;
    if (afterHandling !== undefined && typeof afterHandling !== 'boolean') {
      throw new TypeError(
        `dropNext: afterHandling must be true or false, got ${String(afterHandling)}`,
      );
    }
    const matchers = matchersOf(options, 'dropNext');
    this.pending.push({ kind: 'drop', ...options, ...matchers, remaining: options.times ?? 1 });
  }

  /** Takes one use of the first fault matching the request, if any. */
  take(method: string, path: string): Fault | undefined {
    const fault = this.pending.find((f) => matches(f, method, path));
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.pending.splice(this.pending.indexOf(fault), 1);
    return fault;
  }

  /** Forgets every pending fault. */
  clear(): void {
    this.pending.length = 0;
  }
}
