import http from 'node:http';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createWebhookHandler, type WebhookHandler } from '../../src/webhooks';
import { countedChunks, listen, send, serveFetch } from '../helpers/http-servers';
import { waitFor, withTimeout } from '../helpers/waits';

const FIFTY_MIB = 50 * 1024 * 1024;
const ONE_MIB = 1024 * 1024;
// Socket and kernel buffers on loopback hold a few MiB, and a loaded machine lets the client push
// a little more before the close lands; reading it all would be 50.
const WELL_UNDER = 16 * ONE_MIB;

/**
 * The answer `server` gives to its next request, as the server wrote it. A server that answers
 * early and closes while an upload is still arriving may reset the connection before the sender
 * has read the answer (HTTP/1.1 has no way around it; curl sees the same), so the server's own
 * record is what these tests hold to, and the sender may see either the answer or the reset.
 */
function nextAnswer(server: http.Server): Promise<number> {
  const answer = new Promise<number>((resolve) => {
    server.once('request', (_request: http.IncomingMessage, response: http.ServerResponse) => {
      response.once('finish', () => resolve(response.statusCode));
    });
  });
  return withTimeout(answer, 10_000, "the server's answer");
}

/** What the sender saw: the answer, or the code of a reset that came before it could read it. */
function sendSeen(
  url: string,
  options: Parameters<typeof send>[1],
): Promise<Awaited<ReturnType<typeof send>> | string> {
  return send(url, options).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ECONNRESET') return error.code;
    throw error;
  });
}

const mounts: Record<string, (handler: WebhookHandler) => http.Server> = {
  'node:http with .node': (handler) => http.createServer(handler.node),
  'Express 5 with .node': (handler) => {
    const app = express();
    app.post('/', handler.node);
    return http.createServer(app);
  },
  'node:http with .fetch': (handler) => serveFetch(handler.fetch),
};

describe.each(Object.entries(mounts))('a 50 MiB body, %s', (_name, mount) => {
  it('is refused with 413 while streaming, without the server reading it all', async () => {
    const ran: string[] = [];
    const handler = createWebhookHandler({ onUnknown: (event) => void ran.push(event.event) });
    const mounted = mount(handler);
    const answered = nextAnswer(mounted);
    const server = await listen(mounted);
    try {
      const upload = countedChunks(FIFTY_MIB);
      const seen = await sendSeen(`${server.url}/`, { body: upload.chunks });
      expect(await answered).toBe(413);
      if (typeof seen === 'string') expect(['EPIPE', 'ECONNRESET']).toContain(seen);
      else expect(seen.status).toBe(413);
      await server.socketsClosed();
      const [bytesRead = Number.POSITIVE_INFINITY] = server.bytesReadByClosedSockets;
      expect(bytesRead).toBeGreaterThan(ONE_MIB);
      expect(bytesRead).toBeLessThan(WELL_UNDER);
      expect(upload.pulled()).toBeLessThan(FIFTY_MIB / 2);
      expect(ran).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('is refused with 413 from its Content-Length, before reading the body', async () => {
    const handler = createWebhookHandler({ onUnknown: () => {} });
    const mounted = mount(handler);
    const answered = nextAnswer(mounted);
    const server = await listen(mounted);
    try {
      const upload = countedChunks(FIFTY_MIB);
      const seen = await sendSeen(`${server.url}/`, {
        headers: { 'content-length': String(FIFTY_MIB) },
        body: upload.chunks,
      });
      expect(await answered).toBe(413);
      if (typeof seen === 'string') expect(['EPIPE', 'ECONNRESET']).toContain(seen);
      else expect([seen.status, seen.headers.connection]).toEqual([413, 'close']);
      await server.socketsClosed();
      expect(server.bytesReadByClosedSockets[0]).toBeLessThan(WELL_UNDER);
      expect(upload.pulled()).toBeLessThan(FIFTY_MIB / 2);
    } finally {
      await server.close();
    }
  });
});

describe('.fetch with a 50 MiB Request body', () => {
  function fiftyMiBRequest(headers: Record<string, string> = {}) {
    let pulled = 0;
    let cancelled = false;
    const chunk = new Uint8Array(64 * 1024);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= FIFTY_MIB) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request('http://127.0.0.1/webhooks', {
      method: 'POST',
      headers,
      body,
      duplex: 'half',
    } as RequestInit);
    return { request, pulled: () => pulled, cancelled: () => cancelled };
  }

  it('stops pulling the stream just past the bound and cancels it', async () => {
    const handler = createWebhookHandler({ onUnknown: () => {} });
    const delivery = fiftyMiBRequest();
    const response = await handler.fetch(delivery.request);
    expect(response.status).toBe(413);
    expect(delivery.pulled()).toBeLessThan(2 * ONE_MIB);
    await waitFor(() => delivery.cancelled(), 'the request body to be cancelled');
    expect(delivery.cancelled()).toBe(true);
  });

  it('reads nothing when Content-Length declares it', async () => {
    const handler = createWebhookHandler({ onUnknown: () => {} });
    const delivery = fiftyMiBRequest({ 'content-length': String(FIFTY_MIB) });
    const response = await handler.fetch(delivery.request);
    expect(response.status).toBe(413);
    expect(delivery.pulled()).toBeLessThanOrEqual(2 * 64 * 1024);
  });
});

it('a body just under the bound is still handled', async () => {
  const seen: string[] = [];
  const handler = createWebhookHandler({ onUnknown: (event) => void seen.push(event.event) });
  const server = await listen(http.createServer(handler.node));
  try {
    const padding = 'x'.repeat(ONE_MIB - 200);
    const body = JSON.stringify({ event: 'order_created', payload: { padding } });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(ONE_MIB);
    expect((await send(`${server.url}/`, { body })).status).toBe(200);
    expect(seen).toEqual(['order_created']);
  } finally {
    await server.close();
  }
});
