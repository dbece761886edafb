/**
 * A loopback forward proxy, as a partner's corporate network puts one in front of every call: it
 * reads absolute-form requests (`GET http://host/path`), records what each carried, and relays it
 * to its origin, or answers itself where a test says so (a 407 asking for proxy credentials, a 502
 * when the origin cannot be reached), the way Squid or an egress gateway does. A `CONNECT` (the
 * tunnel for an `https://` origin, and for every origin through Node's own `NODE_USE_ENV_PROXY`)
 * is recorded and opened, unless the test answers it.
 */

import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { listen, type RunningServer } from './http-servers';

/** A request as the proxy saw it: the absolute URL and the headers it carried. */
export interface ProxiedRequest {
  method: string;
  /** The absolute URL of the request line (`http://127.0.0.1:1234/api/v1/auth`). */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The request's body as text. */
  body: string;
}

/** The proxy's own answer to a request, instead of relaying it. */
export interface ProxyAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`: the proxy's address, for `ProxyAgent` or `HTTP_PROXY`. */
  url: string;
  /** Every request it received, in order. */
  seen: ProxiedRequest[];
  close(): Promise<void>;
}

/** Headers about the hop to the proxy, never relayed to the origin. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authorization', 'proxy-connection']);

/**
 * Starts the proxy. `answer`, when given, sees each request and returns the proxy's own answer to
 * it, or `undefined` to relay it. `hosts` are names only the proxy resolves (to the address given),
 * as a corporate proxy reaches hosts its clients cannot: a call to one succeeds only through it.
 */
export async function startForwardProxy(
  answer?: (request: ProxiedRequest) => ProxyAnswer | undefined,
  hosts: Readonly<Record<string, string>> = {},
): Promise<ForwardProxy> {
  const seen: ProxiedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const request = { method: req.method ?? 'GET', url: req.url ?? '', headers: req.headers };
    seen.push({ ...request, body: body.toString('utf8') });
    const own = answer?.(seen.at(-1)!);
    if (own) {
      res.writeHead(own.status, own.headers ?? {});
      res.end(own.body ?? '');
      return;
    }
    relay(request, body, res, hosts);
  });
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    const request = { method: 'CONNECT', url: req.url ?? '', headers: req.headers, body: '' };
    seen.push(request);
    const own = answer?.(request);
    if (own) return refuseTunnel(socket, own);
    tunnel(request.url, socket, hosts);
  });
  const running: RunningServer = await listen(server);
  return { url: running.url, seen, close: () => running.close() };
}

/** Sends the request on to its origin and the origin's answer back, as it came. */
function relay(
  request: Omit<ProxiedRequest, 'body'>,
  body: Buffer,
  res: http.ServerResponse,
  hosts: Readonly<Record<string, string>>,
): void {
  const target = new URL(request.url);
  target.hostname = hosts[target.hostname] ?? target.hostname;
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
  );
  const upstream = http.request(
    target,
    { method: request.method, headers, agent: false },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('bad gateway');
  });
  upstream.end(body);
}

/** Opens the tunnel a `CONNECT host:port` asks for, and pipes the two sockets together. */
function tunnel(authority: string, socket: Duplex, hosts: Readonly<Record<string, string>>): void {
  const { hostname, port } = new URL(`http://${authority}`);
  const upstream = net.connect(Number(port), hosts[hostname] ?? hostname, () => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
  socket.on('close', () => upstream.destroy());
}

/** Answers a `CONNECT` with the test's refusal, and closes. */
function refuseTunnel(socket: Duplex, own: ProxyAnswer): void {
  const lines = Object.entries(own.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`);
  const reason = http.STATUS_CODES[own.status] ?? '';
  socket.end(`HTTP/1.1 ${own.status} ${reason}\r\n${lines.join('')}\r\n${own.body ?? ''}`);
}
