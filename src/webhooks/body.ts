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
 * if ((await readWebBody(request.body, 1024)) === TOO_LARGE) return new Response(null, { status: 413 });
 * ```
 */
export const TOO_LARGE = Symbol('too large');

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
 * Reads a Fetch body stream up to `maxBytes`; past it, cancels the stream and gives {@link TOO_LARGE}.
 *
 * @example
 * ```ts
 * const bytes = await readWebBody(request.body, 1024 * 1024);
 * ```
 */
export async function readWebBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array | typeof TOO_LARGE> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Not awaited: a source that never settles its cancel must not hold the answer back.
      reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    chunks.push(value);
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
 * The connection closed before the whole body arrived.
 *
 * @example
 * ```ts
 * readNodeBody(req, max).catch((err) => err instanceof BodyAbortedError); // sender went away
 * ```
 */
export class BodyAbortedError extends Error {}

/**
 * Reads a Node.js request stream up to `maxBytes`. Past the bound it stops listening and pauses the
 * stream (Node then stops reading the socket once its small buffer is full) and gives
 * {@link TOO_LARGE}; the caller answers 413 with `Connection: close`.
 *
 * @example
 * ```ts
 * const bytes = await readNodeBody(req, 1024 * 1024);
 * if (bytes === TOO_LARGE) res.writeHead(413, { connection: 'close' }).end();
 * ```
 */
export function readNodeBody(
  req: NodeWebhookRequest,
  maxBytes: number,
): Promise<Uint8Array | typeof TOO_LARGE> {
  if (req.readableEnded) return Promise.resolve(new Uint8Array(0));
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const cleanup = () => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      req.removeListener('close', onClose);
    };
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      size += bytes.byteLength;
      if (size > maxBytes) {
        cleanup();
        req.pause();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      cleanup();
      resolve(concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    // `close` before `end`: the sender went away mid-body.
    const onClose = () => {
      cleanup();
      reject(new BodyAbortedError('the connection closed before the body was complete'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
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
