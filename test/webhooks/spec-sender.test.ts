/**
 * The receiver as spec §6 describes its sender: an independent sender written here with plain
 * `fetch` (no helper of the SDK's, nor of the testing kit's) POSTs each event's JSON with
 * `Content-Type: application/json` and no other header, and reads the answer, over real loopback
 * HTTP. Beside the deliveries the spec shows, what a sender may put in them that the spec does not
 * rule out: any timestamps, another content type, unicode, event names that are Object.prototype
 * members, a body at the size bound, a hundred copies of one event at once.
 */

import http from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  defaultDedupeKey,
  MemoryDedupeStore,
  parseWebhookEvent,
  secretVerifier,
  type WebhookEvent,
  type WebhookHandler,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index';
import { closedAfterEach, countedChunks, send, serveFetch } from '../helpers/http-servers';
import { nextTurn, sleep, waitFor } from '../helpers/waits';
import {
  bankAccountUpdatedBody,
  subscriptionEndedBody,
  userUpdatedBody,
} from '../helpers/webhook-bodies';

const { serve } = closedAfterEach();

const faces = {
  '.node on node:http': (handler: WebhookHandler) => http.createServer(handler.node),
  '.fetch over node:http': (handler: WebhookHandler) => serveFetch(handler.fetch),
};

interface Answer {
  status: number;
  body: unknown;
}

/** One delivery as the spec shows it: POST, `Content-Type: application/json` unless told otherwise. */
async function deliver(
  url: string,
  body: string | Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** A receiver of `options` served by `face`, and the URL registered with the platform. */
async function receiver(
  face: (handler: WebhookHandler) => http.Server,
  options: WebhookHandlerOptions,
): Promise<string> {
  const handler = createWebhookHandler({ logLevel: 'off', ...options });
  return `${(await serve(face(handler))).url}/webhooks/partner`;
}

const HANDLED = { status: 200, body: { received: true } };
const DUPLICATE = { status: 200, body: { received: true, duplicate: true } };

describe.each(Object.entries(faces))('a sender written from spec §6, %s', (_face, face) => {
  it('is answered each verdict of the guide with its status, JSON body and headers', async () => {
    const store = new MemoryDedupeStore();
    const url = await receiver(face, {
      dedupe: store,
      bodyTimeoutMs: 300,
      maxBodyBytes: 8 * 1024,
      verify: ({ headers }) => headers.get('x-forged') === null,
      onError: () => {},
      on: {
        subscription_ended: () => {},
        bank_account_updated: () => {
          throw new Error('cannot reach postgres://app:hunter2@db');
        },
      },
    });
    const answer = async (
      init: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> },
    ) => {
      const response = await fetch(url, {
        method: 'POST',
        ...init,
        headers: { 'content-type': 'application/json', ...init.headers },
        signal: AbortSignal.timeout(10_000),
      });
      const headers = Object.fromEntries(
        ['allow', 'retry-after', 'accept-encoding', 'content-type']
          .map((name) => [name, response.headers.get(name)])
          .filter(([, value]) => value !== null),
      );
      return { status: response.status, headers, body: await response.json() };
    };
    const json = { 'content-type': 'application/json' };
    const ended = JSON.stringify(subscriptionEndedBody);

    expect(await answer({ body: ended })).toEqual({
      status: 200,
      headers: json,
      body: { received: true },
    });
    expect(await answer({ body: ended })).toEqual({
      status: 200,
      headers: json,
      body: { received: true, duplicate: true },
    });
    expect(await answer({ body: JSON.stringify(userUpdatedBody) })).toEqual({
      status: 200,
      headers: json,
      body: { received: true },
    });
    for (const malformed of ['{"event":', '[]', '{"payload":{}}', '']) {
      expect(await answer({ body: malformed })).toEqual({
        status: 400,
        headers: json,
        body: { error: 'invalid_payload', message: expect.any(String) },
      });
    }
    expect(await answer({ body: ended, headers: { 'x-forged': '1' } })).toEqual({
      status: 401,
      headers: json,
      body: { error: 'unauthorized' },
    });
    expect(await answer({ method: 'GET' })).toEqual({
      status: 405,
      headers: { ...json, allow: 'POST' },
      body: { error: 'method_not_allowed', message: expect.any(String) },
    });
    expect(await answer({ body: ended.padEnd(8 * 1024 + 1, ' ') })).toEqual({
      status: 413,
      headers: json,
      body: { error: 'payload_too_large', max_bytes: 8 * 1024 },
    });
    expect(await answer({ body: ended, headers: { 'content-encoding': 'gzip' } })).toEqual({
      status: 415,
      headers: { ...json, 'accept-encoding': 'identity' },
      body: { error: 'unsupported_content_encoding', message: expect.any(String) },
    });
    const failing = await answer({ body: JSON.stringify(bankAccountUpdatedBody) });
    expect(failing).toEqual({ status: 500, headers: json, body: { error: 'internal_error' } });
    // Another receiver sharing the store holds this delivery's claim.
    const held = { ...subscriptionEndedBody, metadata: { request_id: 'req_held' } };
    const key = await defaultDedupeKey(parseWebhookEvent(held));
    await store.claim(key, { leaseMs: 60_000, owner: 'another receiver' });
    expect(await answer({ body: JSON.stringify(held) })).toEqual({
      status: 503,
      headers: { ...json, 'retry-after': '5' },
      body: { error: 'delivery_in_progress' },
    });
    // A body that stops arriving.
    const stalled = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(url, { method: 'POST', agent: false });
      request.setHeader('content-type', 'application/json');
      request.setHeader('content-length', String(ended.length));
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      request.on('error', reject);
      request.write(ended.slice(0, 100));
    });
    expect({ ...stalled, body: JSON.parse(stalled.body) }).toEqual({
      status: 408,
      body: { error: 'body_timeout' },
    });
  });

  it('is answered 200 for empty objects a PHP sender writes as [] (payload, metadata, buyer)', async () => {
    const seen: WebhookEvent[] = [];
    const url = await receiver(face, {
      on: { subscription_ended: (event) => void seen.push(event) },
      onUnknown: (event) => void seen.push(event),
    });
    const orderCreated = { ...userUpdatedBody, event: 'order_created', payload: [], metadata: [] };
    const ended = {
      ...subscriptionEndedBody,
      payload: { ...subscriptionEndedBody.payload, buyer: [], commissions: [] },
    };
    for (const body of [orderCreated, ended]) {
      expect(await deliver(url, JSON.stringify(body))).toEqual(HANDLED);
    }
    expect(seen.map((event) => event.event)).toEqual(['order_created', 'subscription_ended']);
    expect(seen[0]?.payload).toEqual([]);
  });

  it('is checked in order: the method, the secret in the URL, the declared size, the encoding, then the body', async () => {
    let runs = 0;
    const url = await receiver(face, {
      maxBodyBytes: 1024,
      verify: secretVerifier({ secret: 'wh_s3cret_token', query: 'token' }),
      onUnknown: () => {
        runs += 1;
      },
    });
    const signed = `${url}?token=wh_s3cret_token`;
    const big = JSON.stringify(userUpdatedBody).padEnd(2048, ' ');
    const gzip = { 'content-type': 'application/json', 'content-encoding': 'gzip' };
    const statusOf = async (target: string, init: RequestInit) =>
      (await fetch(target, { signal: AbortSignal.timeout(10_000), ...init })).status;
    expect(await statusOf(url, { method: 'PUT', body: big, headers: gzip })).toBe(405);
    expect(await statusOf(url, { method: 'POST', body: big, headers: gzip })).toBe(401);
    expect(await statusOf(signed, { method: 'POST', body: big, headers: gzip })).toBe(413);
    expect(await statusOf(signed, { method: 'POST', body: '{', headers: gzip })).toBe(415);
    expect(await statusOf(signed, { method: 'POST', body: '{' })).toBe(400);
    expect(runs).toBe(0);
  });

  it('is answered 200 whatever the timestamps say: there is no clock window on an unsigned field', async () => {
    const seen: Array<string | null | undefined> = [];
    const url = await receiver(face, {
      dedupe: true,
      on: { subscription_ended: (event) => void seen.push(event.created_at) },
    });
    const at = (created_at: string | undefined, code: string) =>
      JSON.stringify({
        ...subscriptionEndedBody,
        payload: { ...subscriptionEndedBody.payload, subscription_code: code },
        created_at,
        updated_at: created_at,
      });
    // A redelivery after an outage, a sender whose clock runs ahead, none at all, another format.
    const stamps = [
      '1970-01-01T00:00:00.000000Z',
      '2001-01-01T00:00:00.000000Z',
      new Date(Date.now() + 10 * 60_000).toISOString(),
      '2999-12-31T23:59:59.999999Z',
      undefined,
      '14/03/2025 12:30:45',
    ];
    for (const [index, stamp] of stamps.entries()) {
      expect(await deliver(url, at(stamp, `sub_${index}`))).toEqual(HANDLED);
    }
    expect(seen).toEqual(stamps);
    // The defence against a replayed delivery is dedupe, not its age.
    expect(await deliver(url, at(stamps[0], 'sub_0'))).toEqual(DUPLICATE);
  });

  it('reads the body as UTF-8 JSON whatever Content-Type says, and refuses bytes that are not UTF-8 with 400', async () => {
    const seen: string[] = [];
    const url = await receiver(face, {
      onUnknown: (event) => void seen.push(String(event.payload?.name)),
    });
    const named = (name: string) =>
      JSON.stringify({ ...userUpdatedBody, payload: { ...userUpdatedBody.payload, name } });
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(await deliver(url, named('a'), { 'content-type': 'text/plain' })).toEqual(HANDLED);
    // A Uint8Array body goes without any Content-Type.
    expect(await deliver(url, bytes(named('b')), {})).toEqual(HANDLED);
    const typed = { 'content-type': 'APPLICATION/JSON; Charset="UTF-8"' };
    expect(await deliver(url, named('c'), typed)).toEqual(HANDLED);
    // A UTF-8 byte order mark before the JSON.
    expect(await deliver(url, bytes(`\uFEFF${named('d')}`))).toEqual(HANDLED);
    expect(seen).toEqual(['a', 'b', 'c', 'd']);

    // Latin-1 is not JSON's encoding: refused rather than read with replacement characters.
    const latin1 = Buffer.from(named('João'), 'latin1');
    const refused = await deliver(url, latin1, {
      'content-type': 'application/json; charset=iso-8859-1',
    });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_payload' } });
    expect(seen).toHaveLength(4);
  });

  it('hands unicode to the handler intact, and knows a redelivery written with \\u escapes for a duplicate', async () => {
    const seen: WebhookEvent[] = [];
    const url = await receiver(face, { dedupe: true, onUnknown: (event) => void seen.push(event) });
    const event = {
      ...userUpdatedBody,
      event: 'usuário_atualizado_🎉',
      payload: { name: 'João Ñandú 東京 👩‍💻', about: 'line\u2028separator', zero: '\u0000' },
    };
    const plain = JSON.stringify(event);
    // The same event as a sender that escapes every character outside ASCII would write it.
    const escaped = plain.replace(
      /[\u007f-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    expect(escaped).not.toBe(plain);
    expect(await deliver(url, plain)).toEqual(HANDLED);
    expect(await deliver(url, escaped)).toEqual(DUPLICATE);
    expect(seen).toEqual([event]);
  });

  it('never runs an `on` handler nor touches a prototype for events named after Object.prototype members', async () => {
    const unknown: string[] = [];
    const url = await receiver(face, {
      on: {
        subscription_ended: () => {
          throw new Error('must not run');
        },
      },
      onUnknown: (event) => void unknown.push(event.event),
    });
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
    for (const name of names) {
      expect(await deliver(url, JSON.stringify({ ...userUpdatedBody, event: name }))).toEqual(
        HANDLED,
      );
    }
    expect(unknown).toEqual(names);
    // An event name offered only through `__proto__` is no event name.
    const smuggled = '{"__proto__":{"event":"subscription_ended"},"payload":{}}';
    expect(await deliver(url, smuggled)).toMatchObject({ status: 400 });
    expect(({} as Record<string, unknown>).event).toBeUndefined();
    expect(unknown).toEqual(names);
  });

  it('runs 100 concurrent deliveries of one event once, answering every one 200', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let runs = 0;
    let keyed = 0;
    const url = await receiver(face, {
      dedupe: true,
      // Counts the deliveries that have their key: each then joins the one being handled.
      dedupeKey: async (event) => {
        const key = await defaultDedupeKey(event);
        keyed += 1;
        return key;
      },
      on: {
        subscription_ended: async () => {
          runs += 1;
          await gate;
        },
      },
    });
    const body = JSON.stringify(subscriptionEndedBody);
    const answers = Array.from({ length: 100 }, () => deliver(url, body));
    await waitFor(() => keyed === 100, 'all 100 deliveries to arrive', 10_000);
    await nextTurn();
    expect(runs).toBe(1);
    release();
    const statuses = (await Promise.all(answers)).map((answer) => answer.status);
    expect(statuses).toEqual(Array(100).fill(200));
    expect(runs).toBe(1);
    expect(await deliver(url, body)).toEqual(DUPLICATE);
  }, 20_000);

  it('takes a body of exactly maxBodyBytes, and answers 413 one byte over, declared or chunked', async () => {
    const MAX = 4 * 1024;
    const seen: string[] = [];
    const url = await receiver(face, {
      maxBodyBytes: MAX,
      onUnknown: (event) => void seen.push(event.event),
    });
    const json = JSON.stringify(userUpdatedBody);
    // White space after the JSON pads it to any size without changing the event.
    const exact = json.padEnd(MAX, ' ');
    expect(Buffer.byteLength(exact)).toBe(MAX);
    expect(await deliver(url, exact)).toEqual(HANDLED);
    expect(await deliver(url, `${exact} `)).toMatchObject({
      status: 413,
      body: { error: 'payload_too_large', max_bytes: MAX },
    });
    // The same sizes without Content-Length, in chunks that split the bound.
    const chunked = (text: string) => {
      const bytes = new TextEncoder().encode(text);
      return [bytes.subarray(0, 1000), bytes.subarray(1000, MAX - 1), bytes.subarray(MAX - 1)];
    };
    expect((await send(url, { body: chunked(exact) })).status).toBe(200);
    expect((await send(url, { body: chunked(`${exact} `) })).status).toBe(413);
    expect(seen).toEqual(['user_updated', 'user_updated']);
    // An endless chunked body is cut at the bound too.
    const endless = countedChunks(Number.MAX_SAFE_INTEGER, 1024);
    expect((await send(url, { body: endless.chunks })).status).toBe(413);
  });

  it('forgets a handled delivery after dedupeTtlMs: its redelivery then runs the handler again', async () => {
    let runs = 0;
    const url = await receiver(face, {
      dedupe: true,
      dedupeTtlMs: 400,
      on: {
        subscription_ended: () => {
          runs += 1;
        },
      },
    });
    const body = JSON.stringify(subscriptionEndedBody);
    expect(await deliver(url, body)).toEqual(HANDLED);
    expect(await deliver(url, body)).toEqual(DUPLICATE);
    // The time to live itself is what is under test: wait it out.
    await sleep(450);
    expect(await deliver(url, body)).toEqual(HANDLED);
    expect(runs).toBe(2);
  });
});

describe('an event name the sender chose', () => {
  it('is logged quoted and cut, so a line break or an escape in it writes no log line of its own', async () => {
    const lines: string[] = [];
    const record = (...args: unknown[]) => {
      lines.push(args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' '));
    };
    const url = await receiver(faces['.node on node:http'], {
      logger: { error: record, warn: record, info: record, debug: record },
      logLevel: 'warn',
      verify: () => true,
      handlerTimeoutMs: 100,
      onUnknown: (event) =>
        event.payload?.hang ? new Promise(() => {}) : Promise.reject(new Error('no table for it')),
    });
    const name = `evil\n[partner-sdk] webhook subscription_ended handled\u001b[2J${'x'.repeat(100_000)}`;
    const failing = JSON.stringify({ ...userUpdatedBody, event: name });
    const hanging = JSON.stringify({ ...userUpdatedBody, event: name, payload: { hang: true } });
    expect((await deliver(url, failing)).status).toBe(500);
    expect((await deliver(url, hanging)).status).toBe(500);
    // The failure, and the time-out (whose message names the handler).
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain('\n');
      expect(line).not.toContain(String.fromCharCode(27));
      expect(line.length).toBeLessThan(400);
      expect(line).toContain('"evil\\n[partner-sdk] webhook subscription_ended handled');
    }
  });
});

describe('a duplicate that arrives while the first is being handled', () => {
  it("waits for each of the first's steps (each bounded by handlerTimeoutMs) and gets its answer", async () => {
    const LIMIT_MS = 300;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let runs = 0;
    let keyed = 0;
    const inner = new MemoryDedupeStore();
    const url = await receiver(faces['.node on node:http'], {
      handlerTimeoutMs: LIMIT_MS,
      onError: () => {},
      dedupeKey: async (event) => {
        keyed += 1;
        return defaultDedupeKey(event);
      },
      dedupe: {
        claim: (key, options) => inner.claim(key, options),
        release: (key, options) => inner.release(key, options),
        // The handled mark is never stored: the first delivery waits out its time-out.
        complete: () => new Promise(() => {}),
      },
      on: {
        subscription_ended: async () => {
          runs += 1;
          await gate;
        },
      },
    });
    const body = JSON.stringify(subscriptionEndedBody);
    const answers = [deliver(url, body), deliver(url, body)];
    await waitFor(() => keyed === 2 && runs === 1, 'both deliveries to arrive');
    await nextTurn();
    const opened = Date.now();
    release();
    expect(await Promise.all(answers)).toEqual([HANDLED, HANDLED]);
    // After the handler, the first waited for the store's complete until its time-out; the
    // duplicate with it.
    expect(Date.now() - opened).toBeGreaterThanOrEqual(LIMIT_MS - 20);
    expect(runs).toBe(1);
  });
});
