/**
 * The `listen()` face: a real `node:http` server on 127.0.0.1 (a free port, or the one asked for), feeding each
 * request through the mock. A drop destroys the socket; `close()` also closes idle keep-alive
 * connections so a test process can exit.
 *
 * @module
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_BODY_BYTES } from './body';
import { DROP } from './dispatch';
import type { RawHandler } from './internal';

/** A running loopback server of the mock. */
export interface MockServer {
  /** The API base URL of this server, e.g. `http://127.0.0.1:50123/api/v1`. */
  url: string;
  /**
   * Stops the server and closes every connection, keep-alive ones included, and an answer still
   * pending. Until then the server keeps the process alive, as any listening `node:http` server
   * does: a test runner that waits for its processes to end (Jest, `node --test`) waits on a
   * server never closed.
   *
   * @example
   * ```ts
   * const server = await mock.listen();
   * afterAll(() => server.close());
   * ```
   */
  close(): Promise<void>;
}

async function toRequest(
  req: IncomingMessage,
  origin: string,
  signal: AbortSignal,
): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // Past the kit's body limit the rest is drained unkept: the mock answers 413 from what it has,
  // so a huge upload never sits in the test process's memory.
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const chunk of req) {
    if (kept > MAX_BODY_BYTES) continue;
    chunks.push(chunk as Buffer);
    kept += (chunk as Buffer).length;
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && chunks.length > 0;
  return new Request(`${origin}${req.url ?? '/'}`, {
    method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
    signal,
  });
}

async function serve(
  handle: RawHandler,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const aborted = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborted.abort(new Error('client disconnected'));
  });
  try {
    const request = await toRequest(req, origin, aborted.signal);
    const answer = await handle(request, { remoteAddress: req.socket.remoteAddress ?? 'unknown' });
    if (answer === DROP) {
      req.socket.destroy();
      return;
    }
    const body = Buffer.from(await answer.arrayBuffer());
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // A HEAD answer has no body, and its length is the GET's, which the kit does not compute:
    // none is said rather than a false 0 (RFC 9110 §8.6).
    const length = request.method === 'HEAD' ? {} : { 'content-length': String(body.length) };
    res.writeHead(answer.status, { ...headers, ...length });
    res.end(body);
  } catch {
    req.socket.destroy();
  }
}

/** Options of `mock.listen`. */
export interface MockListenOptions {
  /**
   * The port to listen on, 0 to 65535: a fixed one for a service configured with the kit's
   * address. Default 0, a free port. A taken port rejects with the system's `EADDRINUSE` error.
   */
  port?: number;
}

/** Starts a loopback server that answers with `handle`, on `port` (0: a free one). */
export function listen(
  handle: RawHandler,
  { port = 0 }: MockListenOptions = {},
): Promise<MockServer> {
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    return Promise.reject(
      new RangeError(`listen: port must be a whole number from 0 to 65535, got ${port}`),
    );
  }
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      server.on('request', (req, res) => void serve(handle, origin, req, res));
      resolve({
        url: `${origin}/api/v1`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
