import http from 'node:http';
import express from 'express';
import { describe, expect, it, vi } from 'vitest';
import { PartnerError, WebhookPayloadError } from '../../src/index';
import {
  createWebhookHandler,
  type Logger,
  MemoryDedupeStore,
  type WebhookDedupeStore,
  WebhookTimeoutError,
} from '../../src/webhooks';
import { closedAfterEach, send } from '../helpers/http-servers';
import { subscriptionEndedBody } from '../helpers/webhook-bodies';

const { serve } = closedAfterEach();

const silent: Logger = { error() {}, warn() {}, info() {}, debug() {} };
const body = JSON.stringify(subscriptionEndedBody);
const delivery = () =>
  new Request('https://partner.example.com/webhooks/partner?token=t0k', { method: 'POST', body });

describe('createWebhookHandler options', () => {
  it('refuses limits that are not positive integers, and a buffer budget below one body', () => {
    for (const name of [
      'maxBodyBytes',
      'bodyTimeoutMs',
      'handlerTimeoutMs',
      'dedupeTtlMs',
      'maxBufferedBodyBytes',
    ]) {
      for (const value of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(() => createWebhookHandler({ logger: silent, [name]: value }), name).toThrow(
          RangeError,
        );
      }
    }
    expect(() => createWebhookHandler({ logger: silent, handlerTimeoutMs: 2 ** 31 })).toThrow(
      RangeError,
    );
    expect(() =>
      createWebhookHandler({ logger: silent, maxBodyBytes: 2048, maxBufferedBodyBytes: 1024 }),
    ).toThrow(/at least maxBodyBytes/);
  });

  it('refuses, at creation, a handler or hook that is not a function, naming it', () => {
    const made = (options: Record<string, unknown>) => () =>
      createWebhookHandler({ logger: silent, ...options } as never);
    // The easy slip: the secret itself given as verify.
    expect(made({ verify: 'wh_secret' })).toThrow(
      /`verify` must be a function, got string.*secretVerifier/,
    );
    expect(made({ verify: true })).toThrow(TypeError);
    expect(made({ on: { subscription_ended: 'endSubscription' } })).toThrow(
      /`on.subscription_ended` must be a function/,
    );
    expect(made({ on: [] })).toThrow(/`on` must be an object/);
    expect(made({ onUnknown: {} })).toThrow(/`onUnknown` must be a function/);
    expect(made({ dedupe: true, dedupeKey: 'request_id' })).toThrow(
      /`dedupeKey` must be a function/,
    );
    expect(made({ onError: null })).toThrow(/`onError` must be a function, got null/);
    // Absent ones are fine, as is an event left without a handler.
    expect(made({ on: { user_updated: undefined }, verify: () => true })).not.toThrow();
  });

  it('refuses, at creation, an `on` whose handlers it would never find, which would answer every event 200 unhandled', async () => {
    // Plain JavaScript (TypeScript refuses both): a class's methods live on its prototype, a
    // Map's entries are no properties, and only an object's own properties are read as handlers.
    class Handlers {
      subscription_ended() {}
    }
    const handlers = [new Handlers(), new Map([['subscription_ended', () => {}]])];
    for (const on of handlers) {
      expect(() => createWebhookHandler({ logger: silent, on } as never)).toThrow(
        /`on` must be a plain object of handlers by event name/,
      );
    }
    // A plain object still passes, with or without a prototype.
    const bare = Object.assign(Object.create(null), { subscription_ended: () => {} });
    expect(() => createWebhookHandler({ logger: silent, on: bare })).not.toThrow();
  });

  it('reads logLevel as the client does, whatever its case, and refuses an unknown one at creation', () => {
    // The warning comes once per logger: each level gets a logger of its own.
    const warnedAt = (logLevel: string) => {
      const lines: string[] = [];
      const logger: Logger = { ...silent, warn: (line: string) => lines.push(line) };
      createWebhookHandler({ logger, logLevel: logLevel as never });
      return lines;
    };
    // A level read from the environment may come in capitals: 'ERROR' still holds back warnings.
    expect(warnedAt('ERROR')).toEqual([]);
    expect(warnedAt('Warn')).toEqual([expect.stringContaining('without verify')]);
    // An unknown level would have let every line through, debug included.
    expect(() => createWebhookHandler({ logger: silent, logLevel: 'verbose' as never })).toThrow(
      /`logLevel` must be 'off', 'error', 'warn', 'info' or 'debug', got verbose/,
    );
  });

  it("refuses, at creation, a logger that is not an object with console's four methods, naming those missing", () => {
    const made = (logger: unknown) => () => createWebhookHandler({ logger: logger as never });
    // Such a logger would have swallowed every line, the warnings and the failures included.
    expect(made('console')).toThrow(
      /`logger` must have console's methods error, warn, info and debug \(error, warn, info, debug missing\)/,
    );
    expect(made(null)).toThrow(TypeError);
    expect(made({ error() {}, warn() {}, info() {} })).toThrow(/\(debug missing\)/);
    expect(made(silent)).not.toThrow();
  });

  it('logs a failure through logger.error when there is no onError', async () => {
    const errors: unknown[][] = [];
    const handler = createWebhookHandler({
      logger: { ...silent, error: (...args) => errors.push(args) },
      on: {
        subscription_ended: () => {
          throw new Error('database down');
        },
      },
    });
    expect((await handler.fetch(delivery())).status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[0]).toMatch(/webhook subscription_ended failed/);
  });
  it('reports a handler past handlerTimeoutMs as a PartnerError of its own class', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({
      logger: silent,
      onError,
      handlerTimeoutMs: 100,
      on: { subscription_ended: () => new Promise(() => {}) },
    });
    expect((await handler.fetch(delivery())).status).toBe(500);
    const error = onError.mock.calls[0]?.[0];
    expect(error).toBeInstanceOf(WebhookTimeoutError);
    expect(error).toBeInstanceOf(PartnerError);
    expect(error).toMatchObject({ name: 'WebhookTimeoutError', timeoutMs: 100 });
    expect(new WebhookPayloadError('not JSON')).not.toBeInstanceOf(WebhookTimeoutError);
  });
});

describe('the defaults the webhooks guide states', () => {
  const post = (body: string | ReadableStream<Uint8Array>) =>
    new Request('http://127.0.0.1/webhooks/partner', {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);

  it('takes a body of 1 MiB and answers 413 one byte over', async () => {
    const handler = createWebhookHandler({ logger: silent });
    // White space after the JSON pads it to a size in bytes (the body has letters of two bytes).
    const padded = (bytes: number) => body.padEnd(bytes - (Buffer.byteLength(body) - body.length));
    expect(Buffer.byteLength(padded(1024 * 1024))).toBe(1024 * 1024);
    expect((await handler.fetch(post(padded(1024 * 1024)))).status).toBe(200);
    const over = await handler.fetch(post(padded(1024 * 1024 + 1)));
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ error: 'payload_too_large', max_bytes: 1024 * 1024 });
  });

  it('claims for 65 s (twice the 30 s handler time-out, and 5 s) and remembers a handled delivery for 7 days', async () => {
    const calls: unknown[] = [];
    const inner = new MemoryDedupeStore();
    const handler = createWebhookHandler({
      logger: silent,
      dedupe: {
        claim: (key, options) => {
          calls.push(['claim', options.leaseMs]);
          return inner.claim(key, options);
        },
        complete: (key, options) => {
          calls.push(['complete', options.ttlMs]);
          return inner.complete(key, options);
        },
        release: (key, options) => inner.release(key, options),
      },
    });
    expect((await handler.fetch(post(body))).status).toBe(200);
    expect(calls).toEqual([
      ['claim', 65_000],
      ['complete', 7 * 24 * 60 * 60 * 1000],
    ]);
  });

  it('gives a body 10 s to arrive and a handler 30 s to finish', async () => {
    vi.useFakeTimers();
    try {
      const handler = createWebhookHandler({
        logger: silent,
        on: { subscription_ended: () => new Promise(() => {}) },
        onError: () => {},
      });
      const statuses: number[] = [];
      const stalled = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
      void handler.fetch(post(stalled)).then((response) => statuses.push(response.status));
      await vi.advanceTimersByTimeAsync(9_999);
      expect(statuses).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(statuses).toEqual([408]);

      void handler.fetch(post(body)).then((response) => statuses.push(response.status));
      await vi.advanceTimersByTimeAsync(29_999);
      expect(statuses).toEqual([408]);
      await vi.advanceTimersByTimeAsync(1);
      expect(statuses).toEqual([408, 500]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('verify gets the URL the delivery was sent to', () => {
  it('on .fetch, as the request has it', async () => {
    const seen: string[] = [];
    const handler = createWebhookHandler({
      verify: ({ url }) => {
        seen.push(url.href);
        return url.searchParams.get('token') === 't0k';
      },
    });
    expect((await handler.fetch(delivery())).status).toBe(200);
    expect(seen).toEqual(['https://partner.example.com/webhooks/partner?token=t0k']);
  });

  it('on .node, with its path and query, under node:http and under an Express router', async () => {
    const seen: string[] = [];
    const handler = createWebhookHandler({
      verify: ({ url }) => {
        seen.push(`${url.pathname}${url.search}`);
        return url.searchParams.get('token') === 't0k';
      },
    });
    const plain = await serve(http.createServer(handler.node));
    const router = express.Router();
    router.post('/partner', handler.node);
    const app = express();
    app.use('/webhooks', router);
    const mounted = await serve(http.createServer(app));
    expect((await send(`${plain.url}/hooks?token=t0k`, { body })).status).toBe(200);
    expect((await send(`${mounted.url}/webhooks/partner?token=t0k`, { body })).status).toBe(200);
    expect((await send(`${mounted.url}/webhooks/partner?token=nope`, { body })).status).toBe(401);
    expect(seen).toEqual([
      '/hooks?token=t0k',
      '/webhooks/partner?token=t0k',
      '/webhooks/partner?token=nope',
    ]);
  });
});

describe('a verify that answers something other than a boolean', () => {
  // Plain JavaScript can hand verify's check a value instead of a verdict (here the token itself,
  // which any forger can send): only `true` lets a delivery in.
  const verdicts: Array<[string, unknown]> = [
    ['the token it read', 'forged'],
    ['a truthy object', { valid: false }],
    ['a number', 1],
    ['nothing', undefined],
  ];

  it.each(verdicts)(
    'answers 500 and runs nothing when verify returns %s',
    async (_name, verdict) => {
      const onError = vi.fn();
      const run = vi.fn();
      const handler = createWebhookHandler({
        logger: silent,
        onError,
        verify: (() => Promise.resolve(verdict)) as unknown as () => boolean,
        on: { subscription_ended: run },
      });
      const { url } = await serve(http.createServer(handler.node));
      expect((await send(`${url}/webhooks/partner?token=forged`, { body })).status).toBe(500);
      expect((await handler.fetch(delivery())).status).toBe(500);
      expect(run).not.toHaveBeenCalled();
      const [error] = onError.mock.calls[0] ?? [];
      expect(error).toBeInstanceOf(TypeError);
      expect(String(error)).toContain(
        `verify returned ${verdict === undefined ? 'undefined' : typeof verdict}, not a boolean`,
      );
      // What verify returned may be a secret: the message names its type only.
      expect(String(error)).not.toContain('forged');
    },
  );
});

describe('a dedupe store that misbehaves', () => {
  function storeWith(claim: WebhookDedupeStore['claim']): WebhookDedupeStore {
    const inner = new MemoryDedupeStore();
    return {
      claim,
      complete: (key, options) => inner.complete(key, options),
      release: (key, options) => inner.release(key, options),
    };
  }

  it('answers 500 when claim answers something outside the contract', async () => {
    const onError = vi.fn();
    const run = vi.fn();
    const handler = createWebhookHandler({
      logger: silent,
      onError,
      dedupe: storeWith(async () => 'yes' as never),
      on: { subscription_ended: run },
    });
    expect((await handler.fetch(delivery())).status).toBe(500);
    expect(run).not.toHaveBeenCalled();
    expect(onError.mock.calls[0]?.[0]).toEqual(
      new TypeError("the dedupe store's claim answered yes"),
    );
  });

  it('answers 500 at handlerTimeoutMs when claim never answers', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({
      logger: silent,
      onError,
      handlerTimeoutMs: 100,
      dedupe: storeWith(() => new Promise(() => {})),
      on: { subscription_ended: () => {} },
    });
    expect((await handler.fetch(delivery())).status).toBe(500);
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(WebhookTimeoutError);
  });

  it('answers 500 when dedupeKey gives something other than a string', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({
      logger: silent,
      onError,
      dedupe: true,
      dedupeKey: () => 42 as unknown as string,
      on: { subscription_ended: () => {} },
    });
    expect((await handler.fetch(delivery())).status).toBe(500);
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(TypeError);
  });

  it('answers 503 with Retry-After while another receiver holds the claim', async () => {
    const store = new MemoryDedupeStore();
    const run = vi.fn();
    const handler = createWebhookHandler({
      logger: silent,
      dedupe: store,
      on: { subscription_ended: run },
    });
    const first = await handler.fetch(delivery());
    expect(first.status).toBe(200);
    const other = createWebhookHandler({
      logger: silent,
      dedupe: store,
      dedupeKey: () => 'held-elsewhere',
      on: { subscription_ended: run },
    });
    await store.claim('held-elsewhere', { leaseMs: 60_000, owner: 'another replica' });
    const busy = await other.fetch(delivery());
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('5');
    expect(await busy.json()).toEqual({ error: 'delivery_in_progress' });
    expect(run).toHaveBeenCalledOnce();
  });
});
