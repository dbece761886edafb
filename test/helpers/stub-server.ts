/**
 * A scriptable loopback HTTP server for transport tests: each test says how to answer each request
 * (status sequences, stalls, socket resets) and reads back what arrived. It stands for no part of
 * the service; the service's behaviour lives in the testing kit (`partner-sdk/testing`).
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type StubHandler = (
  request: RecordedRequest,
  res: ServerResponse,
  raw: IncomingMessage,
) => void | Promise<void>;

export interface StubServer {
  /** `http://127.0.0.1:<port>/api/v1`: a base URL for the client. */
  baseUrl: string;
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startStub(handler: StubHandler): Promise<StubServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: (req.url ?? '').replace(/^\/api\/v1/, ''),
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    };
    requests.push(recorded);
    try {
      await handler(recorded, res, req);
    } catch (error) {
      if (!res.headersSent) res.writeHead(599);
      res.end(String(error));
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}/api/v1`,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with a status and optional headers. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Answers each request with the next entry; the last entry repeats. */
export function sequence(...steps: StubHandler[]): StubHandler {
  let index = 0;
  return (request, res, raw) => {
    const step = steps[Math.min(index, steps.length - 1)];
    index += 1;
    return step?.(request, res, raw);
  };
}

/** A handler that logs in (`POST /auth`) with token `tok-<n>` and sends every other request to `next`. */
export function withLogin(next: StubHandler, tokenPrefix = 'login-token-'): StubHandler {
  let logins = 0;
  return (request, res, raw) => {
    if (request.method === 'POST' && request.path === '/auth') {
      logins += 1;
      json(res, 200, { client_token: `${tokenPrefix}${logins}` });
      return;
    }
    return next(request, res, raw);
  };
}

/**
 * For one test file: starts stubs as `startStub` does, each closed after the test that started it
 * (every one of them, when a test starts more than one).
 */
export function stubsClosedAfterEach(): (handler: StubHandler) => Promise<StubServer> {
  const started: StubServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
  return async (handler) => {
    const server = await startStub(handler);
    started.push(server);
    return server;
  };
}
