/**
 * Bodies that arrive other than as plain JSON bytes, over real loopback HTTP: a compressed body
 * (a gzip bomb among them) is refused with 415 unread, unless a framework already inflated it
 * within its own limit; and an empty `req.body` that a framework set without reading the stream
 * (Express 4's body parsers, for a `Content-Type` they do not take) does not hide the delivery.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import express from 'express';
import { Hono } from 'hono';
import { createWebhookHandler, type WebhookHandler } from 'partner-sdk/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer, send, serveFetch } from '../helpers/http-servers';
import { userUpdatedBody } from '../helpers/webhook-bodies';

const body = JSON.stringify(userUpdatedBody);
let server: RunningServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function receiver(): { handler: WebhookHandler; handled: string[] } {
  const handled: string[] = [];
  const handler = createWebhookHandler({
    on: { user_updated: (event) => void handled.push(event.event) },
    verify: () => true,
    logLevel: 'off',
  });
  return { handler, handled };
}

/** 64 MiB of spaces, gzipped into a few tens of KiB. */
const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 32));

describe('a compressed body', () => {
  it.each([
    ['node:http with .node', (handler: WebhookHandler) => http.createServer(handler.node)],
    ['node:http with .fetch', (handler: WebhookHandler) => serveFetch(handler.fetch)],
  ])(
    'is refused with 415 and Accept-Encoding: identity, never inflated (%s)',
    async (_name, mount) => {
      const { handler, handled } = receiver();
      server = await listen(mount(handler));
      const url = `${server.url}/webhooks/partner`;

      const bombed = await send(url, {
        body: [new Uint8Array(bomb)],
        headers: { 'content-encoding': 'gzip' },
      });
      expect(bombed.status).toBe(415);
      expect(bombed.headers['accept-encoding']).toBe('identity');
      expect(JSON.parse(bombed.body)).toMatchObject({ error: 'unsupported_content_encoding' });
      const gzipped = gzipSync(body);
      const small = await send(url, {
        body: [new Uint8Array(gzipped)],
        headers: { 'content-encoding': 'gzip', 'content-length': String(gzipped.byteLength) },
      });
      expect(small.status).toBe(415);
      expect(handled).toEqual([]);
      // Plain, and `identity`, are read as ever.
      expect((await send(url, { body })).status).toBe(200);
      expect((await send(url, { body, headers: { 'content-encoding': 'identity' } })).status).toBe(
        200,
      );
      expect(handled).toEqual(['user_updated', 'user_updated']);
    },
  );

  it('is handled when express.json() inflated it first, within its own limit', async () => {
    const { handler, handled } = receiver();
    const app = express();
    app.use(express.json());
    app.post('/webhooks/partner', handler.node);
    server = await listen(http.createServer(app));
    const gzipped = gzipSync(body);
    const answer = await send(`${server.url}/webhooks/partner`, {
      body: [new Uint8Array(gzipped)],
      headers: { 'content-encoding': 'gzip', 'content-length': String(gzipped.byteLength) },
    });
    expect(answer.status).toBe(200);
    expect(handled).toEqual(['user_updated']);
  });
});

describe('an empty req.body set without reading the stream', () => {
  it('is no body: the delivery is read from the stream and handled', async () => {
    const { handler, handled } = receiver();
    const app = express();
    // What Express 4's body parsers do first, and all they do for a Content-Type not theirs.
    app.use((req, _res, next) => {
      req.body = req.body ?? {};
      next();
    });
    app.post('/webhooks/partner', handler.node);
    server = await listen(http.createServer(app));
    const url = `${server.url}/webhooks/partner`;

    expect((await send(url, { body })).status).toBe(200);
    expect(handled).toEqual(['user_updated']);
    // A body that really is `{}` (read whole by a parser) is still refused as no event.
    const parsed = express();
    parsed.use(express.json());
    parsed.post('/webhooks/partner', handler.node);
    const second = await listen(http.createServer(parsed));
    try {
      expect((await send(`${second.url}/webhooks/partner`, { body: '{}' })).status).toBe(400);
    } finally {
      await second.close();
    }
  });
});

describe('a body express.json() parsed before a verify that checks a signature', () => {
  it('is refused with 401, and the logger is told once why and what to mount instead', async () => {
    const key = 'signing-key-shared-with-the-platform';
    const sign = (bytes: Uint8Array | string) =>
      createHmac('sha256', key).update(bytes).digest('hex');
    const warnings: unknown[][] = [];
    const logger = { ...console, warn: (...args: unknown[]) => void warnings.push(args) };
    const handled: string[] = [];
    const handler = createWebhookHandler({
      on: { user_updated: (event) => void handled.push(event.event) },
      verify: ({ rawBody, body: text, headers }) => {
        const given = Buffer.from(headers.get('x-signature') ?? '');
        const expected = Buffer.from(sign(rawBody ?? text));
        return given.length === expected.length && timingSafeEqual(given, expected);
      },
      logger,
    });
    const parsedFirst = express();
    parsedFirst.use(express.json());
    parsedFirst.post('/webhooks/partner', handler.node);
    server = await listen(http.createServer(parsedFirst));
    // Sent as a sender would: its own spacing, which JSON.stringify does not give back.
    const sent = JSON.stringify(userUpdatedBody, null, 2);
    const signed = { 'x-signature': sign(sent) };
    const url = `${server.url}/webhooks/partner`;

    expect((await send(url, { body: sent, headers: signed })).status).toBe(401);
    expect((await send(url, { body: sent, headers: signed })).status).toBe(401);
    const told = warnings.filter((args) => /already parsed/.test(String(args[0])));
    expect(told).toHaveLength(1);
    expect(String(told[0]?.[0])).toMatch(/before any JSON parser.*express\.raw/);
    expect(handled).toEqual([]);

    // Mounted before the parser, the same delivery passes.
    const rawFirst = express();
    rawFirst.post('/webhooks/partner', handler.node);
    rawFirst.use(express.json());
    const second = await listen(http.createServer(rawFirst));
    try {
      expect(
        (await send(`${second.url}/webhooks/partner`, { body: sent, headers: signed })).status,
      ).toBe(200);
    } finally {
      await second.close();
    }
    expect(handled).toEqual(['user_updated']);
  });
});

describe('a body a framework read without setting req.body', () => {
  it('is answered 500 (the sender delivers again) and onError is told how to mount the handler', async () => {
    const errors: unknown[] = [];
    const handled: string[] = [];
    const handler = createWebhookHandler({
      on: { user_updated: (event) => void handled.push(event.event) },
      verify: () => true,
      onError: (error) => void errors.push(error),
      logLevel: 'off',
    });
    // What Koa's and Fastify's body parsers do: read the stream, keep the body on their own object.
    const consumedFirst = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => void handler.node(req, res));
    });
    server = await listen(consumedFirst);
    const answer = await send(`${server.url}/webhooks/partner`, { body });
    expect(answer.status).toBe(500);
    expect(handled).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
    expect(String(errors[0])).toMatch(/already read.*mount handler\.node before any body parser/);
  });
});

describe('a Request whose body a middleware already read, on .fetch', () => {
  it('is answered 500 (the sender delivers again) and onError is told how to mount the handler', async () => {
    const errors: unknown[] = [];
    const handled: string[] = [];
    const handler = createWebhookHandler({
      on: { user_updated: (event) => void handled.push(event.event) },
      verify: () => true,
      onError: (error) => void errors.push(error),
      logLevel: 'off',
    });
    // A Hono middleware that reads the body (a logger, a validator) leaves c.req.raw consumed.
    const app = new Hono();
    app.use('/webhooks/*', async (c, next) => {
      await c.req.json();
      await next();
    });
    app.post('/webhooks/partner', (c) => handler.fetch(c.req.raw));
    server = await listen(serveFetch(app.fetch));
    const answer = await send(`${server.url}/webhooks/partner`, { body });
    expect(answer.status).toBe(500);
    expect(answer.body).toBe('{"error":"internal_error"}');
    expect(handled).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
    expect(String(errors[0])).toMatch(
      /already read.*mount the webhook handler before any middleware/,
    );
  });
});
