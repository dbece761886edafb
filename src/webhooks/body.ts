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
 * if ((await readWebBody(request.body, 1024, 10_000)) === TOO_LARGE) return new Response(null, { status: 413 });
 * ```
 */
export const TOO_LARGE = Symbol('too large');

/**
 * What a read gives back when the whole body did not arrive within the time allowed.
 *
 * @example
 * ```ts
 * if ((await readWebBody(request.body, 1024, 10_000)) === TOO_SLOW) return new Response(null, { status: 408 });
 * ```
 */
export const TOO_SLOW = Symbol('too slow');

/**
 * What a read gives back when the sender went away (or its stream failed) before the body ended.
 *
 * @example
 * ```ts
 * if ((await readNodeBody(req, 1024, 10_000)) === ABORTED) return; // nobody to answer
 * ```
 */
export const ABORTED = Symbol('aborted');

/** The outcome of reading a body: its bytes, or why there are none. */
export type BodyRead = Uint8Array | typeof TOO_LARGE | typeof TOO_SLOW | typeof ABORTED;

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
 * Reads a Fetch body stream up to `maxBytes` and within `timeoutMs`; past either it cancels the
 * stream and gives {@link TOO_LARGE} or {@link TOO_SLOW}. A stream that fails gives {@link ABORTED}.
 *
 * @example
 * ```ts
 * const bytes = await readWebBody(request.body, 1024 * 1024, 10_000);
 * ```
 */
export async function readWebBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  timeoutMs: number,
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
      size += next.value.byteLength;
      if (size > maxBytes) {
        abandon();
        return TOO_LARGE;
      }
      chunks.push(next.value);
    }
  } catch {
    return ABORTED;
  } finally {
    clearTimeout(timer);
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
  /** The body a framework already read (Express `express.json()`, `express.raw()`, `express.text()`). */
  body?: unknown;
  /** The request's path and query, as Node.js gives it. */
  url?: string | undefined;
  /** Express's path and query before any router stripped its mount path. */
  originalUrl?: string | undefined;
  /** Whether the body stream was already read to its end. */
  readonly readableEnded?: boolean;
  /** Subscribes to the stream's `data`, `end`, `error` and `close` events. */
  on(event: string, listener: (...args: never[]) => void): unknown;
  /** Unsubscribes a listener added with `on`. */
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  /** Stops the flow of `data` events. */
  pause(): unknown;
}

/**
 * Reads a Node.js request stream up to `maxBytes` and within `timeoutMs`. Past either it stops
 * listening, drops what it read and pauses the stream (Node then stops reading the socket once its
 * small buffer is full), giving {@link TOO_LARGE} or {@link TOO_SLOW}; the caller answers with
 * `Connection: close`, so Node closes the socket once the answer is written. A stream that ends
 * early or fails (the sender went away) gives {@link ABORTED}.
 *
 * @example
 * ```ts
 * const bytes = await readNodeBody(req, 1024 * 1024, 10_000);
 * if (bytes === TOO_LARGE) res.writeHead(413, { connection: 'close' }).end();
 * ```
 */
export function readNodeBody(
  req: NodeWebhookRequest,
  maxBytes: number,
  timeoutMs: number,
): Promise<BodyRead> {
  if (req.readableEnded) return Promise.resolve(new Uint8Array(0));
  return new Promise((resolve) => {
    let chunks: Uint8Array[] = [];
    let size = 0;
    const finish = (outcome: BodyRead) => {
      clearTimeout(timer);
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
      size += bytes.byteLength;
      if (size > maxBytes) finish(TOO_LARGE);
      else chunks.push(bytes);
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
