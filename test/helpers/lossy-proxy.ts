/**
 * A loopback proxy in front of the testing kit's server: it forwards every
 * request to the mock service and lets a test decide, per request, to lose the answer after the
 * service acted (a reset or a 5xx), the way a flaky network or gateway does.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What to do with one request: forward it and relay the answer, or lose that answer. */
export type ProxyVerdict =
  | 'relay'
  | 'reset-after'
  | 'bad-gateway-after'
  | 'refuse-before'
  /** The answer's status, headers and first half of its body relayed, then the connection cut. */
  | 'cut-body-after';

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
    if (verdict === 'cut-body-after') {
      res.writeHead(answer.status, { ...relayed, 'content-length': String(body.length) });
      res.write(body.subarray(0, Math.floor(body.length / 2)));
      setTimeout(() => req.socket.destroy(), 20);
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
