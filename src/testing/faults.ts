/**
 * Fault injection: scripted failures (`failNext`) and connection drops (`dropNext`), consumed in
 * the order they were added by the requests they match.
 *
 * @module
 */

/** Options of `mock.failNext`. */
export interface FailNextOptions {
  /**
   * Status to answer with, 200 to 599. Omit it to only delay (with `delayMs`) and then answer
   * normally. 204, 205 and 304 are answered without a body, as HTTP has them.
   */
  status?: number;
  /** How many matching requests the fault applies to, at least 1. Default 1. */
  times?: number;
  /** `Retry-After` header value: seconds, or an HTTP date string. */
  retryAfter?: number | string;
  /** Wait this long before answering (aborted with the request's signal or socket). */
  delayMs?: number;
  /** Response body (JSON). Default `{ message }` with a text for the status; none for 204, 205, 304. */
  body?: unknown;
  /** Only requests to this path (relative to the API base, e.g. `/auth`; no query) or matching this pattern. */
  path?: string | RegExp;
  /** Only requests with this method. */
  method?: string;
}

/** Options of `mock.dropNext`. */
export interface DropNextOptions {
  /** How many matching requests to drop. Default 1. */
  times?: number;
  /** Only requests to this path (relative to the API base) or matching this pattern. */
  path?: string | RegExp;
  /** Only requests with this method. */
  method?: string;
}

/** A fault that matched a request. */
export type Fault =
  | ({ kind: 'fail'; remaining: number } & FailNextOptions)
  | ({ kind: 'drop'; remaining: number } & DropNextOptions);

function matches(fault: Fault, method: string, path: string): boolean {
  if (fault.method && fault.method.toUpperCase() !== method) return false;
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
    [
      'retryAfter',
      typeof options.retryAfter === 'string' ||
        absentOr(options.retryAfter, (n) => Number.isFinite(n) && n >= 0),
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

/** The queue of pending faults. */
export class FaultQueue {
  private readonly pending: Fault[] = [];

  /** Queues a scripted failure. */
  fail(options: FailNextOptions): void {
    checked(options, 'failNext');
    this.pending.push({ kind: 'fail', ...options, remaining: options.times ?? 1 });
  }

  /** Queues a connection drop. */
  drop(options: DropNextOptions): void {
    checked(options, 'dropNext');
    this.pending.push({ kind: 'drop', ...options, remaining: options.times ?? 1 });
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
