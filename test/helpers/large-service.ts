/**
 * A loopback service for the SDK at its largest sizes, run in the test's process while the SDK
 * runs in a child, so that the child's memory is the SDK's alone: it takes uploads of any size
 * without keeping them (counting their bytes), sends a download of a given size, or one that
 * never ends, answers pages and single products, and counts the connections the client opens.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { wireAnticipation, wireProduct, wireUser } from './kit-fixtures';

export interface LargeService {
  /** `http://127.0.0.1:<port>/api/v1`. */
  baseUrl: string;
  /** Bytes of each upload body that arrived whole, in order. */
  uploads: number[];
  /** Each upload body that arrived whole, with its headers, when `keepUploads` is set. */
  uploadBodies: Request[];
  /** Uploads whose connection the service dropped part way. */
  dropped: number;
  /** Paths and queries of the page requests, in order. */
  pages: string[];
  /** Connections: opened since the start, open now, most open at one time. */
  connections(): { opened: number; open: number; peak: number };
  close(): Promise<void>;
}

export interface LargeServiceOptions {
  /** The download's size in bytes (`GET /downloads/big.csv`). */
  downloadBytes?: number;
  /** A pause in the middle of the download, in ms: a body longer than an attempt's time-out. */
  downloadPauseMs?: number;
  /** How long a single product's answer waits, in ms: calls pile up in flight meanwhile. */
  productDelayMs?: number;
  /** Never answer a single product: calls stay in flight until the client gives up. */
  stallProducts?: boolean;
  /** The anticipation list's last page. */
  lastPage?: number;
  /** Keep each whole upload (for small ones), to read back what arrived. */
  keepUploads?: boolean;
  /** Drop the connection of the first `count` uploads once `bytes` of each have arrived. */
  dropUploads?: { count: number; bytes: number };
}

const MiB = 2 ** 20;

/** Writes `total` bytes in 256 KiB chunks as fast as the client reads them, pausing once midway. */
async function download(res: ServerResponse, total: number, pauseMs: number) {
  res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(total) });
  const chunk = Buffer.alloc(256 * 1024, 0x62);
  for (let sent = 0; sent < total && !res.destroyed; sent += chunk.length) {
    if (pauseMs > 0 && sent === Math.floor(total / chunk.length / 2) * chunk.length) {
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    const part = total - sent < chunk.length ? chunk.subarray(0, total - sent) : chunk;
    if (!res.write(part)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

/** A JSON string that never closes, written until the client hangs up. */
async function endless(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  res.write('"');
  while (!res.destroyed) {
    if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
  }
}

function json(res: ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** `per_page` anticipations of page `page` of a list `lastPage` pages long. */
function anticipationsPage(url: URL, lastPage: number) {
  const page = Number(url.searchParams.get('page') ?? 1);
  const perPage = Number(url.searchParams.get('per_page') ?? 25);
  const data = Array.from({ length: perPage }, (_, i) =>
    wireAnticipation(`ant_${page}_${i}_${'x'.repeat(100)}`),
  );
  const pagination = {
    current_page: page,
    from: (page - 1) * perPage + 1,
    per_page: perPage,
    to: page * perPage,
    total: lastPage * perPage,
    last_page: lastPage,
  };
  return { status: 'success', message: 'ok', data: { anticipations: data, pagination } };
}

/** Takes an upload, counting its bytes (keeping them when asked), or drops it part way. */
async function upload(
  req: IncomingMessage,
  res: ServerResponse,
  service: LargeService,
  options: LargeServiceOptions,
) {
  const drop = options.dropUploads && service.dropped < options.dropUploads.count;
  const kept: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req) {
    bytes += (chunk as Buffer).length;
    if (options.keepUploads) kept.push(chunk as Buffer);
    if (drop && bytes >= options.dropUploads!.bytes) {
      service.dropped += 1;
      req.socket.destroy();
      return;
    }
  }
  service.uploads.push(bytes);
  if (options.keepUploads) {
    const headers = { 'content-type': req.headers['content-type'] ?? '' };
    service.uploadBodies.push(
      new Request('http://x/', { method: 'POST', headers, body: Buffer.concat(kept) }),
    );
  }
  json(res, wireUser());
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  service: LargeService,
  options: LargeServiceOptions,
) {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname.replace(/^\/api\/v1/, '');
  if (path === '/users/update') return upload(req, res, service, options);
  if (path === '/downloads/big.csv') {
    return download(res, options.downloadBytes ?? 500 * MiB, options.downloadPauseMs ?? 0);
  }
  if (path === '/downloads/endless') return endless(res);
  if (path === '/financial/anticipation') {
    service.pages.push(`${path}${url.search}`);
    return json(res, anticipationsPage(url, options.lastPage ?? 2_000));
  }
  if (path.startsWith('/products/')) {
    if (options.stallProducts) return;
    await new Promise((resolve) => setTimeout(resolve, options.productDelayMs ?? 0));
    return json(res, wireProduct(decodeURIComponent(path.slice('/products/'.length))));
  }
  res.writeHead(404).end();
}

export async function startLargeService(options: LargeServiceOptions = {}): Promise<LargeService> {
  const sockets = new Set<Socket>();
  let opened = 0;
  let peak = 0;
  const service: LargeService = {
    baseUrl: '',
    uploads: [],
    uploadBodies: [],
    dropped: 0,
    pages: [],
    connections: () => ({ opened, open: sockets.size, peak }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    answer(req, res, service, options).catch((error) => res.destroy(error));
  });
  server.on('connection', (socket) => {
    opened += 1;
    sockets.add(socket);
    peak = Math.max(peak, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });
  // Idle connections kept a minute, as a proxy in front of a service keeps them (nginx: 75 s):
  // Node's 5 s would close the first of thousands of calls' before the last had answered.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 8_192, resolve));
  service.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  return service;
}
