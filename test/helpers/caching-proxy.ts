/**
 * A loopback proxy that caches as a misconfigured shared cache does: it keeps every `GET` answer,
 * credentials or not, and serves the kept copy to a later `GET` of the same URL, unless that
 * request asks for the origin's own answer (`Cache-Control: no-cache`, RFC 9111 §5.2.1.4; the
 * fresh answer is kept then). Other methods go through; an answer lost on the way to the proxy
 * (its connection reset) is lost to the client too: the client's socket is destroyed.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from './http-servers';

/** A running caching proxy. */
export interface CachingProxy {
  /** The upstream's base URL, on the proxy's origin. */
  baseUrl: string;
  /** `GET /path (cached)`, `GET /path` or `POST /path`, per request, in order. */
  seen: string[];
  close(): Promise<void>;
}

interface Kept {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers a hop sets for itself, never forwarded. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'content-encoding',
]);

/** Starts a caching proxy in front of `upstreamBaseUrl` (which may have a path, e.g. `/api/v1`). */
export async function startCachingProxy(upstreamBaseUrl: string): Promise<CachingProxy> {
  const upstream = new URL(upstreamBaseUrl);
  const kept = new Map<string, Kept>();
  const seen: string[] = [];
  const server = createServer((req, res) => {
    relay(req, res).catch(() => req.socket.destroy());
  });
  async function relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const stored = method === 'GET' ? kept.get(url) : undefined;
    if (stored && !/no-cache/i.test(String(req.headers['cache-control'] ?? ''))) {
      seen.push(`${method} ${url} (cached)`);
      res.writeHead(stored.status, stored.headers).end(stored.body);
      return;
    }
    seen.push(`${method} ${url}`);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !HOP_BY_HOP.has(name)) headers.set(name, value);
    }
    // A reset upstream rejects here (or while reading the body): the caller destroys the socket.
    const answer = await fetch(`${upstream.origin}${url}`, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const answerHeaders: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) answerHeaders[name] = value;
    });
    if (method === 'GET') kept.set(url, { status: answer.status, headers: answerHeaders, body });
    res.writeHead(answer.status, answerHeaders).end(body);
  }
  const running = await listen(server);
  return {
    baseUrl: `${running.url}${upstream.pathname.replace(/\/$/, '')}`,
    seen,
    close: running.close,
  };
}
