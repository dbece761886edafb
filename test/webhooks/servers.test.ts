import http from 'node:http';
import express from 'express';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler, type WebhookEvent, type WebhookHandler } from '../../src/webhooks';
import {
  countedChunks,
  listen,
  type RunningServer,
  send,
  serveFetch,
} from '../helpers/http-servers';
import { sleep } from '../helpers/waits';
import {
  bankAccountUpdatedBody,
  subscriptionEndedBody,
  userUpdatedBody,
} from '../helpers/webhook-bodies';

const MAX_BODY_BYTES = 64 * 1024;
const SECRET = { 'x-webhook-secret': 's3cret' };

/** Every way the handler gets mounted: each must answer the same over real HTTP. */
const mounts: Record<string, (handler: WebhookHandler) => http.Server> = {
  'node:http with .node': (handler) => http.createServer(handler.node),
  'Express 5 with .node, raw body': (handler) => {
    const app = express();
    app.all('/webhooks/partner', handler.node);
    return http.createServer(app);
  },
  'Express 5 with .node after express.json()': (handler) => {
    const app = express();
    app.use(express.json());
    app.all('/webhooks/partner', handler.node);
    return http.createServer(app);
  },
  'node:http with .fetch': (handler) => serveFetch(handler.fetch),
  'Hono with .fetch': (handler) => {
    const app = new Hono();
    app.all('/webhooks/partner', (c) => handler.fetch(c.req.raw));
    return serveFetch(app.fetch);
  },
};

describe.each(Object.entries(mounts))('%s', (_name, mount) => {
  const handled: WebhookEvent[] = [];
  let server: RunningServer;
  let url: string;

  beforeAll(async () => {
    const handler = createWebhookHandler({
      maxBodyBytes: MAX_BODY_BYTES,
      verify: ({ headers }) => headers.get('x-webhook-secret') === 's3cret',
      on: {
        subscription_ended: async (event) => {
          // A handler that takes a moment: the answer must wait for it.
          await sleep(5);
          handled.push(event);
        },
        bank_account_updated: () => {
          throw new Error('cannot reach postgres://app:hunter2@db');
        },
      },
      onUnknown: (event) => {
        handled.push(event);
      },
      onError: () => {},
    });
    server = await listen(mount(handler));
    url = `${server.url}/webhooks/partner`;
  });
  afterAll(() => server.close());

  it('answers 200 once the handler has run on the typed event', async () => {
    const answer = await send(url, {
      headers: SECRET,
      body: JSON.stringify(subscriptionEndedBody),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ received: true });
    expect(handled.at(-1)).toEqual(subscriptionEndedBody);
  });

  it('answers 200 for an unknown event, handed over with its payload intact', async () => {
    const answer = await send(url, { headers: SECRET, body: JSON.stringify(userUpdatedBody) });
    expect(answer.status).toBe(200);
    expect(handled.at(-1)).toEqual(userUpdatedBody);
  });

  it('answers 400 to a body that is not JSON, and to JSON that is not an event', async () => {
    const notJson = await send(url, { headers: SECRET, body: '{"event": "subscription_ended",' });
    expect(notJson.status).toBe(400);
    const notEvent = await send(url, { headers: SECRET, body: JSON.stringify({ payload: {} }) });
    expect(notEvent.status).toBe(400);
  });

  it('answers 405 with Allow: POST to other methods', async () => {
    const answer = await send(url, { method: 'GET', headers: SECRET });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('POST');
    const put = await send(url, { method: 'PUT', headers: SECRET, body: '{}' });
    expect(put.status).toBe(405);
  });

  it('answers 413 to a body over the bound, declared or streamed without Content-Length', async () => {
    const declared = await send(url, { headers: SECRET, body: 'x'.repeat(2 * MAX_BODY_BYTES) });
    expect(declared.status).toBe(413);
    const streamed = countedChunks(4 * MAX_BODY_BYTES, 16 * 1024);
    const chunked = await send(url, { headers: SECRET, body: streamed.chunks });
    expect(chunked.status).toBe(413);
  });

  it('answers 401 when verify refuses the delivery', async () => {
    const answer = await send(url, { body: JSON.stringify(subscriptionEndedBody) });
    expect(answer.status).toBe(401);
  });

  it('answers 500 without detail when the handler throws', async () => {
    const answer = await send(url, {
      headers: SECRET,
      body: JSON.stringify(bankAccountUpdatedBody),
    });
    expect(answer.status).toBe(500);
    expect(answer.body).not.toMatch(/postgres|hunter2/);
  });
});

describe('Express body parsers', () => {
  it('reads a body that express.raw() or express.text() already read', async () => {
    const seen: string[] = [];
    const handler = createWebhookHandler({
      verify: ({ rawBody }) => rawBody !== undefined,
      onUnknown: (event) => {
        seen.push(event.event);
      },
    });
    const app = express();
    app.post('/raw', express.raw({ type: 'application/json' }), handler.node);
    app.post('/text', express.text({ type: 'application/json' }), handler.node);
    const server = await listen(http.createServer(app));
    try {
      const body = JSON.stringify(userUpdatedBody);
      expect((await send(`${server.url}/raw`, { body })).status).toBe(200);
      expect((await send(`${server.url}/text`, { body })).status).toBe(200);
      expect((await send(`${server.url}/raw`, { body: 'nope' })).status).toBe(400);
      expect(seen).toEqual(['user_updated', 'user_updated']);
    } finally {
      await server.close();
    }
  });
  it("leaves the size of a body express.json() parsed to Express's own limit, 100 kB unless set", async () => {
    const seen: string[] = [];
    const handler = createWebhookHandler({
      verify: () => true,
      onUnknown: (event) => void seen.push(event.event),
      logLevel: 'off',
    });
    const app = express();
    app.post('/default', express.json(), handler.node);
    app.post('/raised', express.json({ limit: '1mb' }), handler.node);
    const server = await listen(http.createServer(app));
    try {
      const padded = { ...userUpdatedBody, payload: { note: 'x'.repeat(200 * 1024) } };
      const body = JSON.stringify(padded);
      expect((await send(`${server.url}/default`, { body })).status).toBe(413);
      expect(seen).toEqual([]);
      expect((await send(`${server.url}/raised`, { body })).status).toBe(200);
      expect(seen).toEqual(['user_updated']);
    } finally {
      await server.close();
    }
  });
});

describe('the paths the spec lists events under', () => {
  it('are answered when the handler is mounted on the registered URL and its /webhook-events/<event> paths', async () => {
    const seen: string[] = [];
    const handler = createWebhookHandler({
      verify: () => true,
      onUnknown: (event) => void seen.push(event.event),
      logLevel: 'off',
    });
    const app = express();
    app.post(['/webhooks/partner', '/webhooks/partner/webhook-events/:event'], handler.node);
    const server = await listen(http.createServer(app));
    try {
      const body = JSON.stringify(userUpdatedBody);
      expect((await send(`${server.url}/webhooks/partner`, { body })).status).toBe(200);
      const appended = `${server.url}/webhooks/partner/webhook-events/user_updated`;
      expect((await send(appended, { body })).status).toBe(200);
      expect(seen).toEqual(['user_updated', 'user_updated']);
    } finally {
      await server.close();
    }
  });
});
