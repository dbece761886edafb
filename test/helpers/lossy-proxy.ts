/**
 * A loopback proxy in front of the testing kit's server: it forwards every
 * request to the mock service and lets a test decide, per request, to lose the answer after the
 * service acted (a reset or a 5xx), the way a flaky network or gateway does, or to spoil it: its
 * status relayed with a body cut short or not of the service's making.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

/** What to do with one request: forward it and relay the answer, or lose that answer. */
export type ProxyVerdict = 'relay' | 'reset-after' | 'bad-gateway-after' | 'refuse-before' | Spoilt;

/**
 * An answer's status relayed with its body spoilt: the connection cut after the first half of a
 * body whose `Content-Length` says more (`cut-body-after`) or of a chunked body before its last
 * chunk (`cut-chunked-after`); half a gzip stream, ending cleanly (`cut-gzip-after`: fetch
 * hands it back short without an error, the SDK tells by its JSON never closing); an HTML page, an
 * empty body, or JSON of another shape.
 */
export type Spoilt =
  | 'cut-body-after'
  | 'cut-chunked-after'
  | 'cut-gzip-after'
  | 'html-after'
  | 'empty-after'
  | 'reshaped-after';

/** Every {@link Spoilt} answer, for tests that try each. */
export const SPOILT: readonly Spoilt[] = [
  'cut-body-after',
  'cut-chunked-after',
  'cut-gzip-after',
  'html-after',
  'empty-after',
  'reshaped-after',
];

/** Writes `status` with `body` spoilt as `how` says (see {@link Spoilt}) on `res`. */
export function spoilAnswer(
  how: Spoilt,
  res: ServerResponse,
  status: number,
  body: Buffer,
  headers: Record<string, string> = {},
): void {
  const half = body.subarray(0, Math.floor(body.length / 2));
  const cut = () => setTimeout(() => res.socket?.destroy(), 20);
  const json = { ...headers, 'content-type': 'application/json' };
  if (how === 'cut-body-after') {
    res.writeHead(status, { ...json, 'content-length': String(body.length) });
    res.write(half);
    cut();
  } else if (how === 'cut-chunked-after') {
    res.writeHead(status, json);
    res.write(half);
    cut();
  } else if (how === 'cut-gzip-after') {
    const zipped = gzipSync(body);
    const short = zipped.subarray(0, Math.floor(zipped.length / 2));
    res.writeHead(status, {
      ...json,
      'content-encoding': 'gzip',
      'content-length': String(short.length),
    });
    res.end(short);
  } else if (how === 'html-after') {
    res.writeHead(status, { ...headers, 'content-type': 'text/html' });
    res.end('<!doctype html><html><body><h1>Thank you</h1></body></html>');
  } else if (how === 'empty-after') {
    res.writeHead(status, { ...json, 'content-length': '0' });
    res.end();
  } else {
    res.writeHead(status, json);
    res.end(JSON.stringify({ status: 'success', message: 'ok', data: 'done' }));
  }
}

export interface LossyProxy {
  /** API base URL through the proxy (ends in `/api/v1`). */
  baseUrl: string;
  /** `METHOD /path` of every request the proxy saw. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * Starts a proxy to `upstreamBaseUrl`. `decide` sees each request (its method and path under
 * `/api/v1`); `afterForward`, when given, runs once the service has answered a request whose
 * answer is then lost (to move the service's state on meanwhile, e.g. complete a refund).
 */
export async function startLossyProxy(
  upstreamBaseUrl: string,
  decide: (method: string, path: string) => ProxyVerdict | Promise<ProxyVerdict>,
  afterForward?: (method: string, path: string) => Promise<void>,
): Promise<LossyProxy> {
  const upstream = new URL(upstreamBaseUrl);
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '').replace(/^\/api\/v1/, '');
    const method = req.method ?? 'GET';
    seen.push(`${method} ${path}`);
    const verdict = await decide(method, path);
    if (verdict === 'refuse-before') {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"message":"down"}');
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') {
        headers.set(name, value);
      }
    }
    const answer = await fetch(`${upstream.origin}${req.url}`, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    if (verdict !== 'relay') await afterForward?.(method, path);
    if (verdict === 'reset-after') {
      req.socket.destroy();
      return;
    }
    if (verdict === 'bad-gateway-after') {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
      return;
    }
    const relayed: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding')
        relayed[name] = value;
    });
    if (verdict !== 'relay') {
      spoilAnswer(verdict, res, answer.status, body, relayed);
      return;
    }
    res.writeHead(answer.status, relayed);
    res.end(body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
