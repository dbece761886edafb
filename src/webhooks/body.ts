/**
 * Reading a delivery's body without ever holding more than the size bound: a Fetch body stream
 * and a Node.js request stream, each counted chunk by chunk and abandoned once past the bound.
 *
 * @module
 */

/**
 * What a read gives back when the body is larger than the bound.
 *
 * @example
 * ```ts
 * if ((await readWebBody(request.body, limits)) === TOO_LARGE) return new Response(null, { status: 413 });
 * ```
 */
export const TOO_LARGE = Symbol('too large');

/**
 * What a read gives back when the whole body did not arrive within the time allowed.
 *
 * @example
 * ```ts
 * if ((await readWebBody(request.body, limits)) === TOO_SLOW) return new Response(null, { status: 408 });
 * ```
 */
export const TOO_SLOW = Symbol('too slow');

/**
 * What a read gives back when the sender went away (or its stream failed) before the body ended.
 *
 * @example
 * ```ts
 * if ((await readNodeBody(req, limits)) === ABORTED) return; // nobody to answer
 * ```
 */
export const ABORTED = Symbol('aborted');

/**
 * What a read gives back when the bodies being read at once, this one included, would hold more
 * than the receiver's budget.
 *
 * @example
 * ```ts
 * if ((await readNodeBody(req, limits)) === OVER_BUDGET) res.writeHead(503, { 'retry-after': '1' }).end();
 * ```
 */
export const OVER_BUDGET = Symbol('over budget');

/** The outcome of reading a body: its bytes, or why there are none. */
export type BodyRead =
  | Uint8Array
  | typeof TOO_LARGE
  | typeof TOO_SLOW
  | typeof ABORTED
  | typeof OVER_BUDGET;

/**
 * The bytes that every body being read at once may hold together: a read takes bytes as chunks
 * arrive and gives them all back when it ends, however it ends.
 *
 * @example
 * ```ts
 * const budget = new BodyBudget(64 * 1024 * 1024);
 * if (!budget.take(chunk.byteLength)) return OVER_BUDGET;
 * ```
 */
export class BodyBudget {
  #free: number;

  constructor(total: number) {
    this.#free = total;
  }

  /**
   * Takes `bytes` from the budget if that many are free.
   *
   * @example
   * ```ts
   * budget.take(65_536); // false when the budget is spent
   * ```
   */
  take(bytes: number): boolean {
    if (bytes > this.#free) return false;
    this.#free -= bytes;
    return true;
  }

  /**
   * Gives back `bytes` taken before.
   *
   * @example
   * ```ts
   * budget.give(taken);
   * ```
   */
  give(bytes: number): void {
    this.#free += bytes;
  }
}

/** The bounds on one body's read. */
export interface BodyLimits {
  /** The most bytes the body may have. */
  maxBytes: number;
  /** How long the whole body may take to arrive, in milliseconds. */
  timeoutMs: number;
  /** Shared by every read of one receiver. */
  budget: BodyBudget;
}

/**
 * The declared `Content-Length`, when present and a plain non-negative integer.
 *
 * @example
 * ```ts
 * declaredLength(request.headers.get('content-length')); // 52428800, or undefined
 * ```
 */
export function declaredLength(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/**
 * Reads a Fetch body stream up to `maxBytes`, within `timeoutMs` and the shared `budget`; past any
 * of them it cancels the stream and gives {@link TOO_LARGE}, {@link TOO_SLOW} or
 * {@link OVER_BUDGET}. A stream that fails gives {@link ABORTED}.
 *
 * @example
 * ```ts
 * const bytes = await readWebBody(request.body, { maxBytes: 1024 * 1024, timeoutMs: 10_000, budget });
 * ```
 */
export async function readWebBody(
  body: ReadableStream<Uint8Array> | null,
  { maxBytes, timeoutMs, budget }: BodyLimits,
): Promise<BodyRead> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof TOO_SLOW>((resolve) => {
    timer = setTimeout(() => resolve(TOO_SLOW), timeoutMs);
  });
  // Not awaited: a source that never settles its cancel must not hold the answer back.
  const abandon = () => reader.cancel().catch(() => {});
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === TOO_SLOW) {
        abandon();
        return TOO_SLOW;
      }
      if (next.done) break;
      if (size + next.value.byteLength > maxBytes) {
        abandon();
        return TOO_LARGE;
      }
      if (!budget.take(next.value.byteLength)) {
        abandon();
        return OVER_BUDGET;
      }
      size += next.value.byteLength;
      chunks.push(next.value);
    }
  } catch {
    return ABORTED;
  } finally {
    clearTimeout(timer);
    budget.give(size);
  }
  return concat(chunks, size);
}

/**
 * The part of a Node.js `IncomingMessage` (or Express `Request`) the handler uses. Structural, so
 * the webhooks entry point does not need Node's type definitions on edge runtimes. You never
 * implement it: pass the `req` your server gives you.
 *
 * @example
 * ```ts
 * app.post('/webhooks/partner', (req, res) => handler.node(req, res)); // Express req fits
 * ```
 */
export interface NodeWebhookRequest {
  /** HTTP method. */
  method?: string | undefined;
  /** Request headers, as Node.js gives them (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
  /** Every value of every header as received (Node.js 18.3+), repeated ones included. */
  readonly headersDistinct?: Record<string, string[] | undefined>;
  /** The body a framework already read (Express `express.json()`, `express.raw()`, `express.text()`). */
  body?: unknown;
  /**
   * The body's bytes as sent, where a framework that parsed `body` kept them (NestJS's
   * `rawBody: true`, an `express.json({ verify })` that stores its buffer): read instead of `body`.
   */
  readonly rawBody?: unknown;
  /** The request's path and query, as Node.js gives it. */
  url?: string | undefined;
  /** Express's path and query before any router stripped its mount path. */
  originalUrl?: string | undefined;
  /** Whether the body stream was already read to its end. */
  readonly readableEnded?: boolean;
  /** Whether the stream was already destroyed (the sender went away before the body was read). */
  readonly destroyed?: boolean;
  /**
   * Subscribes to the stream's `data`, `end`, `error` and `close` events. The listener is typed by
   * the one argument the handler reads (a `data` chunk; the others take none it uses), so that
   * every `@types/node`'s `IncomingMessage` fits: a listener of `never[]` is refused by the
   * catch-all overload whose listener takes `any[]` (`@types/node` 26).
   */
  on(event: string, listener: (chunk: Uint8Array | string) => void): unknown;
  /** Unsubscribes a listener added with `on`. */
  removeListener(event: string, listener: (chunk: Uint8Array | string) => void): unknown;
  /** Stops the flow of `data` events. */
  pause(): unknown;
}

/**
 * Reads a Node.js request stream up to `maxBytes`, within `timeoutMs` and the shared `budget`. Past
 * any of them it stops listening, drops what it read and pauses the stream (Node then stops reading
 * the socket once its small buffer is full), giving {@link TOO_LARGE}, {@link TOO_SLOW} or
 * {@link OVER_BUDGET}; the caller answers with `Connection: close`, so Node closes the socket once
 * the answer is written. A stream that ends early or fails (the sender went away) gives
 * {@link ABORTED}.
 *
 * @example
 * ```ts
 * const bytes = await readNodeBody(req, { maxBytes: 1024 * 1024, timeoutMs: 10_000, budget });
 * if (bytes === TOO_LARGE) res.writeHead(413, { connection: 'close' }).end();
 * ```
 */
export function readNodeBody(
  req: NodeWebhookRequest,
  { maxBytes, timeoutMs, budget }: BodyLimits,
): Promise<BodyRead> {
  if (req.readableEnded) return Promise.resolve(new Uint8Array(0));
  // Gone before the read began (an application that awaited something first): its `close` has
  // already been emitted, so no event would ever end the wait below.
  if (req.destroyed) return Promise.resolve(ABORTED);
  return new Promise((resolve) => {
    let chunks: Uint8Array[] = [];
    let size = 0;
    let finished = false;
    const finish = (outcome: BodyRead) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      budget.give(size);
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onFailure);
      req.removeListener('close', onFailure);
      if (typeof outcome === 'symbol') {
        chunks = [];
        req.pause();
      }
      resolve(outcome);
    };
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      if (size + bytes.byteLength > maxBytes) return finish(TOO_LARGE);
      if (!budget.take(bytes.byteLength)) return finish(OVER_BUDGET);
      size += bytes.byteLength;
      chunks.push(bytes);
    };
    const onEnd = () => finish(concat(chunks, size));
    // `error` (Node's "aborted") or `close` before `end`: the sender went away mid-body.
    const onFailure = () => finish(ABORTED);
    const timer = setTimeout(() => finish(TOO_SLOW), timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onFailure);
    req.on('close', onFailure);
  });
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const result = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    result.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return result;
}
