/**
 * Real loopback HTTP for the webhook tests: servers on 127.0.0.1 port 0 that always close, a
 * minimal node:http → Fetch adapter (so `.fetch` and Hono are served over real HTTP), and a client
 * that can stream a body of any size chunk by chunk.
 */

import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach } from 'vitest';
import { withTimeout } from './waits';

export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Bytes each closed connection read from its socket, in order of closing. */
  bytesReadByClosedSockets: number[];
  /** Resolves once every connection so far has closed (bounded by `timeoutMs`). */
  socketsClosed(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A loopback port free a moment ago: listened on with port 0, then closed. */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Listens on 127.0.0.1, port 0, and tracks every socket so `close` ends them all. */
export async function listen(server: http.Server): Promise<RunningServer> {
  const open = new Set<Socket>();
  const bytesReadByClosedSockets: number[] = [];
  let onAllClosed: (() => void) | undefined;
  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => {
      open.delete(socket);
      bytesReadByClosedSockets.push(socket.bytesRead);
      if (open.size === 0) onAllClosed?.();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bytesReadByClosedSockets,
    socketsClosed: (timeoutMs = 5_000) =>
      open.size === 0
        ? Promise.resolve()
        : withTimeout(
            new Promise<void>((resolve) => {
              onAllClosed = resolve;
            }),
            timeoutMs,
            'server sockets to close',
          ),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * For one test file: `serve` listens like `listen`, and every server it started is closed after
 * each test, after whatever else the test handed to `onCleanup` (in the order handed).
 */
export function closedAfterEach(): {
  serve(server: http.Server): Promise<RunningServer>;
  onCleanup(undo: () => unknown): void;
} {
  const undos: Array<() => unknown> = [];
  afterEach(async () => {
    for (const undo of undos.splice(0)) await undo();
  });
  return {
    serve: async (server) => {
      const running = await listen(server);
      undos.push(() => running.close());
      return running;
    },
    onCleanup: (undo) => {
      undos.push(undo);
    },
  };
}

/**
 * Serves a Fetch-standard handler (`handler.fetch`, Hono's `app.fetch`) on node:http. The request
 * body is a pull stream over the socket: a handler that stops reading stops the socket too.
 */
export function serveFetch(
  handle: (request: Request) => Response | Promise<Response>,
): http.Server {
  return http.createServer(async (req, res) => {
    let complete = false;
    req.on('end', () => {
      complete = true;
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headersDistinct)) {
      if (['connection', 'keep-alive', 'transfer-encoding'].includes(name)) continue;
      for (const item of value ?? []) headers.append(name, item);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? pullStream(req) : null,
      duplex: 'half',
    } as RequestInit);
    const response = await handle(request);
    const body = Buffer.from(await response.arrayBuffer());
    const out: Record<string, string> = Object.fromEntries(response.headers);
    // An unread request body cannot be followed by another request on this connection.
    if (hasBody && !complete) out.connection = 'close';
    res.writeHead(response.status, out);
    res.end(body);
  });
}

function pullStream(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  req.pause();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve, reject) => {
        const cleanup = () => {
          req.off('data', onData);
          req.off('end', onEnd);
          req.off('error', onError);
        };
        const onData = (chunk: Buffer) => {
          cleanup();
          req.pause();
          controller.enqueue(new Uint8Array(chunk));
          resolve();
        };
        const onEnd = () => {
          cleanup();
          controller.close();
          resolve();
        };
        const onError = (error: Error) => {
          cleanup();
          reject(error);
        };
        req.on('data', onData);
        req.on('end', onEnd);
        req.on('error', onError);
        req.resume();
      });
    },
    cancel() {
      req.pause();
    },
  });
}

export interface PostResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * POSTs (or sends `method`) with node:http. `body` as a string is sent with Content-Length; as an
 * iterable of chunks it is streamed chunked, without Content-Length, unless `headers` declares one.
 * Resolves as soon as the response is complete, even while the upload is still going (then the
 * upload is aborted, as a sender would once answered).
 */
export function send(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Iterable<Uint8Array>;
    timeoutMs?: number;
  } = {},
): Promise<PostResult> {
  const { method = 'POST', headers = {}, body, timeoutMs = 10_000 } = options;
  const request = http.request(url, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(typeof body === 'string' ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
      ...headers,
    },
    agent: false,
  });
  const result = new Promise<PostResult>((resolve, reject) => {
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        request.destroy();
      });
      response.on('error', reject);
    });
    // Once answered, a write error from the aborted upload is expected and ignored.
    request.on('error', (error) => reject(error));
  });
  if (body === undefined) request.end();
  else if (typeof body === 'string') request.end(body);
  else
    Readable.from(body)
      .on('error', () => {})
      .pipe(request);
  return withTimeout(result, timeoutMs, `${method} ${url}`);
}

/** `total` bytes of `x` in chunks of `chunkSize`, counting how many the consumer pulled. */
export function countedChunks(
  total: number,
  chunkSize = 64 * 1024,
): { chunks: Iterable<Uint8Array>; pulled(): number } {
  let pulled = 0;
  const chunk = new Uint8Array(chunkSize).fill(0x78);
  return {
    chunks: {
      *[Symbol.iterator]() {
        while (pulled < total) {
          const size = Math.min(chunkSize, total - pulled);
          pulled += size;
          yield size === chunkSize ? chunk : chunk.subarray(0, size);
        }
      },
    },
    pulled: () => pulled,
  };
}
