/**
 * The webhook receiver's edges. At a0f3a0e an `onError` that threw made `.node`
 * reject (and an `http.createServer(handler.node)` process exit), a `dedupeKey` that threw made
 * `.fetch` reject, a sender dropping mid-body reached `onError` as `aborted` every time, a trickled
 * or stalled body held its connection and memory as long as the sender liked, a hanging handler
 * held its duplicates forever, and a 20,000-deep pre-parsed body with `verify` set got 500.
 * Everything goes through `partner-sdk/webhooks` on real loopback sockets.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  type Logger,
  type WebhookHandler,
  WebhookTimeoutError,
} from '../../src/webhooks/index';
import { closedAfterEach, send, serveFetch } from '../helpers/http-servers';
import { sleep, waitFor, withTimeout } from '../helpers/waits';
import { subscriptionEndedBody } from '../helpers/webhook-bodies';

const { serve, onCleanup } = closedAfterEach();

const SECRET = { 'x-webhook-secret': 's3cret' };
const verify = ({ headers }: { headers: Headers }) => headers.get('x-webhook-secret') === 's3cret';
const silent: Logger = { error() {}, warn() {}, info() {}, debug() {} };
const body = JSON.stringify(subscriptionEndedBody);

/** A node:http server whose every `handler.node` call is recorded: resolved, or rejected with what. */
function recordingNodeServer(handler: WebhookHandler) {
  const settled: Array<{ rejected: boolean; reason?: unknown }> = [];
  const server = http.createServer((req, res) => {
    handler.node(req, res).then(
      () => settled.push({ rejected: false }),
      (reason: unknown) => {
        settled.push({ rejected: true, reason });
        if (!res.headersSent) res.writeHead(599).end();
      },
    );
  });
  return { server, settled };
}

const faces = {
  '.node on node:http': (handler: WebhookHandler) => http.createServer(handler.node),
  '.fetch over node:http': (handler: WebhookHandler) => serveFetch(handler.fetch),
};

describe('an onError that throws', () => {
  it('never makes .node reject: the delivery is still answered 500', async () => {
    const handler = createWebhookHandler({
      verify,
      logger: silent,
      on: {
        subscription_ended: () => {
          throw new Error('the handler failed');
        },
      },
      onError: () => {
        throw new Error('onError failed too');
      },
    });
    const { server, settled } = recordingNodeServer(handler);
    const { url } = await serve(server);
    const answer = await send(`${url}/webhooks/partner`, { body, headers: SECRET });
    expect(answer.status).toBe(500);
    expect(settled).toEqual([{ rejected: false }]);
  });

  it('logs what an onError threw or rejected with, instead of leaving it unhandled', async () => {
    const errors: unknown[][] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    onCleanup(() => {
      process.off('unhandledRejection', onUnhandled);
    });
    const handler = createWebhookHandler({
      verify,
      logger: { ...silent, error: (...args) => errors.push(args) },
      on: {
        subscription_ended: () => {
          throw new Error('the handler failed');
        },
      },
      onError: async () => {
        throw new Error('async onError failed');
      },
    });
    const { url } = await serve(serveFetch(handler.fetch));
    expect((await send(`${url}/webhooks/partner`, { body, headers: SECRET })).status).toBe(500);
    await waitFor(() => errors.length > 0, 'the failed onError to be logged');
    // Node reports an unhandled rejection once the microtasks have run, before the next macrotask.
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[0]).toMatch(/onError threw/);
  });

  it('keeps an http.createServer(handler.node) process up and answering', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const pinned = `${root}node_modules/.bin/node`;
    const child: ChildProcess = spawn(
      existsSync(pinned) ? pinned : process.execPath,
      ['--import', './examples/support/register.ts', 'test/webhooks/throwing-receiver.child.ts'],
      { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], timeout: 20_000 },
    );
    onCleanup(() => {
      child.stdin?.end();
      if (child.exitCode === null) child.kill();
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const port = await withTimeout(
      new Promise<string>((resolve, reject) => {
        child.stdout?.setEncoding('utf8').once('data', (chunk: string) => resolve(chunk.trim()));
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      }),
      15_000,
      'the receiver process to listen',
    );
    const url = `http://127.0.0.1:${port}/webhooks/partner`;
    const statuses: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      statuses.push((await send(url, { body, headers: SECRET })).status);
    }
    expect(statuses).toEqual([500, 500, 500]);
    // Asked to stop, a process that survived every delivery ends cleanly; one that a throwing
    // onError brought down has already exited with an error.
    const exited = new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once('exit', resolve);
    });
    child.stdin?.end();
    const exitCode = await withTimeout(exited, 10_000, 'the receiver process to stop');
    expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: '' });
  }, 30_000);
});

describe.each(Object.entries(faces))('a dedupeKey that throws, over %s', (_face, mount) => {
  it('answers 500 and tells onError, never rejecting', async () => {
    const reported: unknown[] = [];
    let runs = 0;
    const handler = createWebhookHandler({
      verify,
      dedupe: true,
      dedupeKey: () => {
        throw new Error('no key for you');
      },
      on: {
        subscription_ended: () => {
          runs += 1;
        },
      },
      onError: (error) => reported.push(error),
    });
    const { url } = await serve(mount(handler));
    const answer = await send(`${url}/webhooks/partner`, {
      body,
      headers: SECRET,
      timeoutMs: 3_000,
    });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toEqual({ error: 'internal_error' });
    expect(reported).toEqual([new Error('no key for you')]);
    expect(runs).toBe(0);
    // The Fetch face itself, called as a route handler would: it resolves.
    const direct = handler.fetch(
      new Request('http://127.0.0.1/webhooks/partner', { method: 'POST', headers: SECRET, body }),
    );
    await expect(direct).resolves.toBeInstanceOf(Response);
    expect((await direct).status).toBe(500);
  });
});

/** Opens a raw connection, sends the head of a POST (or `method`) declaring `declared` bytes, and `sent` of them. */
function partialPost(
  url: string,
  declared: number,
  sent: number,
  method = 'POST',
): { socket: net.Socket; response: Promise<string>; closed: Promise<void> } {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => {});
  socket.write(
    `${method} /webhooks/partner HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
      `X-Webhook-Secret: s3cret\r\nContent-Length: ${declared}\r\n\r\n`,
  );
  if (sent > 0) socket.write(Buffer.alloc(sent, 0x20));
  let received = '';
  const response = new Promise<string>((resolve) => {
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
      if (received.includes('\r\n\r\n')) resolve(received);
    });
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, response, closed };
}

describe.each(Object.entries(faces))('a sender that drops mid-body, over %s', (_face, mount) => {
  it('is not an error of the partner: onError is not called, a debug line is logged', async () => {
    const reported: unknown[] = [];
    const debug: string[] = [];
    const handler = createWebhookHandler({
      verify,
      logLevel: 'debug',
      logger: { ...silent, debug: (message) => debug.push(message) },
      on: { subscription_ended: () => {} },
      onError: (error) => reported.push(error),
    });
    const server = mount(handler);
    let started = 0;
    server.on('request', () => {
      started += 1;
    });
    const running = await serve(server);
    for (let round = 0; round < 5; round += 1) {
      const { socket, closed } = partialPost(running.url, 10_000, 100);
      // Drop only once the receiver has the request: a sender dropped before that (a loaded
      // machine can take longer than any fixed wait to connect) never started a body at all.
      await waitFor(() => started > round, 'the receiver to get the request', 5_000);
      socket.destroy();
      await closed;
    }
    await running.socketsClosed(5_000);
    await waitFor(
      () => debug.length >= 5 || reported.length > 0,
      'the receiver to notice the dropped bodies',
      5_000,
    );
    expect(reported).toEqual([]);
    expect(debug.filter((line) => /went away/.test(line))).toHaveLength(5);
  });
});

describe('a sender gone before the receiver starts reading', () => {
  it('is seen as gone at once, not held until bodyTimeoutMs', async () => {
    const debug: string[] = [];
    const handler = createWebhookHandler({
      verify,
      bodyTimeoutMs: 10_000,
      logLevel: 'debug',
      logger: { ...silent, debug: (message) => debug.push(message) },
      on: { subscription_ended: () => {} },
    });
    // An application that reaches the receiver only after something asynchronous of its own (an
    // auth check, a lookup): by then the sender may have dropped the connection.
    let gone: () => void = () => {};
    const senderGone = new Promise<void>((resolve) => {
      gone = resolve;
    });
    const server = http.createServer(async (req, res) => {
      const reqClosed = new Promise<void>((resolve) => req.once('close', () => resolve()));
      await senderGone;
      await reqClosed;
      await handler.node(req, res);
    });
    const running = await serve(server);
    const { socket, closed } = partialPost(running.url, 10_000, 100);
    await withTimeout(
      new Promise<void>((resolve) => server.once('request', () => resolve())),
      5_000,
      'the receiver to get the request',
    );
    socket.destroy();
    await closed;
    gone();
    await waitFor(
      () => debug.some((line) => /went away/.test(line)),
      'the receiver to see the sender gone',
      3_000,
    );
  });
});

describe.each(Object.entries(faces))('slow bodies, over %s', (_face, mount) => {
  it('cuts a trickled body at bodyTimeoutMs with 408, closing the connection', async () => {
    const handler = createWebhookHandler({
      verify,
      bodyTimeoutMs: 300,
      on: { subscription_ended: () => {} },
    });
    const running = await serve(mount(handler));
    const { socket, response, closed } = partialPost(running.url, 100_000, 10);
    const trickle = setInterval(() => socket.write(' '), 20);
    onCleanup(() => {
      clearInterval(trickle);
      socket.destroy();
    });
    const head = await withTimeout(response, 3_000, 'the answer to a trickled body');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head.toLowerCase()).toContain('connection: close');
    await withTimeout(closed, 3_000, 'the server to close the connection');
  });

  it('answers a PUT 405 before its body and closes the connection, never reading a body that does not end', async () => {
    const handler = createWebhookHandler({ verify, on: { subscription_ended: () => {} } });
    const running = await serve(mount(handler));
    const { socket, response, closed } = partialPost(running.url, 1024 ** 3, 10, 'PUT');
    const trickle = setInterval(() => socket.write(' '.repeat(1024)), 20);
    onCleanup(() => {
      clearInterval(trickle);
      socket.destroy();
    });
    const head = await withTimeout(response, 3_000, 'the answer to a PUT');
    expect(head).toMatch(/^HTTP\/1\.1 405 /);
    expect(head.toLowerCase()).toContain('allow: post');
    expect(head.toLowerCase()).toContain('connection: close');
    await withTimeout(closed, 3_000, 'the server to close the connection');
  });

  it('lets go of 40 stalled bodies of 256 KiB once their time is up', async () => {
    const handler = createWebhookHandler({
      verify,
      bodyTimeoutMs: 400,
      on: { subscription_ended: () => {} },
    });
    const running = await serve(mount(handler));
    const stalled = Array.from({ length: 40 }, () =>
      partialPost(running.url, 1024 * 1024, 256 * 1024),
    );
    onCleanup(() => {
      for (const { socket } of stalled) socket.destroy();
    });
    const heads = await withTimeout(
      Promise.all(stalled.map(({ response }) => response)),
      5_000,
      'answers to the stalled bodies',
    );
    expect(heads.every((head) => head.startsWith('HTTP/1.1 408 '))).toBe(true);
    // The server closed every connection: nothing of those bodies is held any more.
    await withTimeout(
      Promise.all(stalled.map(({ closed }) => closed)),
      5_000,
      'the server to close the stalled connections',
    );
    await running.socketsClosed(5_000);
  });
});

describe('a trickled body that express.json() reads', () => {
  it("is not cut at bodyTimeoutMs but by Node's requestTimeout, as the guide says", async () => {
    const ran: string[] = [];
    const handler = createWebhookHandler({
      verify,
      bodyTimeoutMs: 200,
      on: { subscription_ended: () => void ran.push('ran') },
    });
    const app = express();
    app.post('/webhooks/partner', express.json(), handler.node);
    const REQUEST_TIMEOUT_MS = 1_200;
    const server = http.createServer(
      { requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 50 },
      app,
    );
    const running = await serve(server);
    const started = Date.now();
    const { socket, response } = partialPost(running.url, 100_000, 10);
    const trickle = setInterval(() => socket.write(' '), 20);
    onCleanup(() => {
      clearInterval(trickle);
      socket.destroy();
    });
    const head = await withTimeout(response, 5_000, 'the answer to a trickled body');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    // Node's answer, long after bodyTimeoutMs: the receiver never saw the request.
    expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(ran).toEqual([]);
  });
});

describe.each(Object.entries(faces))('many stalled bodies at once, over %s', (_face, mount) => {
  it('hold no more than maxBufferedBodyBytes together: past it, 503 and the connection closed', async () => {
    const handler = createWebhookHandler({
      verify,
      maxBodyBytes: 512 * 1024,
      maxBufferedBodyBytes: 1024 * 1024,
      bodyTimeoutMs: 5_000,
      logger: silent,
      on: { subscription_ended: () => {} },
    });
    const running = await serve(mount(handler));
    // Senders stall with 400 KiB each: two fit in the 1 MiB budget, the third goes past it. Each
    // gets half a second to be refused before the next one comes (a loaded machine may take a
    // while to read 400 KiB); the first answer must be that refusal.
    const opened: Array<ReturnType<typeof partialPost>> = [];
    onCleanup(() => {
      for (const { socket } of opened) socket.destroy();
    });
    let refused: ReturnType<typeof partialPost> | undefined;
    for (let sender = 0; sender < 4 && !refused; sender += 1) {
      const next = partialPost(running.url, 512 * 1024, 400 * 1024);
      opened.push(next);
      const first = await Promise.race([
        ...opened.map(({ response }, index) => response.then((head) => ({ index, head }))),
        sleep(500).then(() => undefined),
      ]);
      if (first === undefined) continue;
      expect(first.index).toBeGreaterThanOrEqual(2);
      expect(first.head).toMatch(/^HTTP\/1\.1 503 /);
      expect(first.head.toLowerCase()).toContain('retry-after: 1');
      refused = opened[first.index];
    }
    expect(refused).toBeDefined();
    await withTimeout(
      (refused as ReturnType<typeof partialPost>).closed,
      3_000,
      'the server to close the connection past the budget',
    );
    // A delivery that fits in what is left is handled meanwhile.
    const small = await send(`${running.url}/webhooks/partner`, { body, headers: SECRET });
    expect(small.status).toBe(200);
  });
});

describe.each(Object.entries(faces))('a hanging handler, over %s', (_face, mount) => {
  it('is answered 500 at handlerTimeoutMs, its signal aborted, and its redelivery runs', async () => {
    const reported: unknown[] = [];
    const aborted: unknown[] = [];
    let runs = 0;
    let letGo = () => {};
    onCleanup(() => letGo());
    const handler = createWebhookHandler({
      verify,
      dedupe: true,
      handlerTimeoutMs: 1_000,
      onError: (error) => reported.push(error),
      on: {
        subscription_ended: (_event, context) => {
          runs += 1;
          if (runs > 1) return;
          // The first run hangs until told to stop (or until the test ends).
          return new Promise<void>((resolve) => {
            letGo = resolve;
            context?.signal.addEventListener('abort', () => {
              aborted.push(context.signal.reason);
              resolve();
            });
          });
        },
      },
    });
    const { url } = await serve(mount(handler));
    const target = `${url}/webhooks/partner`;
    const started = waitFor(() => runs > 0, 'the handler to start');
    // The duplicate comes while the first run hangs, and waits for its answer.
    const [first, waitingDuplicate] = await Promise.all([
      send(target, { body, headers: SECRET, timeoutMs: 5_000 }),
      started.then(() => send(target, { body, headers: SECRET, timeoutMs: 5_000 })),
    ]);
    expect([first.status, waitingDuplicate.status]).toEqual([500, 500]);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(WebhookTimeoutError);
    expect(aborted).toEqual([reported[0]]);
    const redelivery = await send(target, { body, headers: SECRET, timeoutMs: 5_000 });
    expect(JSON.parse(redelivery.body)).toEqual({ received: true });
    expect(runs).toBe(2);
  });
});

/** `{"event":"user_updated","payload":{"a":{"a":…}}}`, nested `depth` deep. */
function deepBody(depth: number): string {
  return `{"event":"user_updated","metadata":{"request_id":"req_deep"},"payload":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
}

describe('a deeply nested body', () => {
  it('gets 400, not 500, when Express parsed it 20,000 deep and verify is set', async () => {
    const reported: unknown[] = [];
    const handler = createWebhookHandler({
      verify,
      dedupe: true,
      onUnknown: () => {},
      onError: (error) => reported.push(error),
    });
    const app = express();
    app.use(express.json({ limit: '1mb' }));
    app.post('/webhooks/partner', handler.node);
    const { url } = await serve(http.createServer(app));
    const answer = await send(`${url}/webhooks/partner`, {
      body: deepBody(20_000),
      headers: SECRET,
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_payload' });
    expect(reported).toEqual([]);
  });

  it.each(Object.entries(faces))(
    'is handled as read from the socket by %s, dedupe included',
    async (_face, mount) => {
      const reported: unknown[] = [];
      let runs = 0;
      const handler = createWebhookHandler({
        verify,
        dedupe: true,
        onUnknown: () => {
          runs += 1;
        },
        onError: (error) => reported.push(error),
      });
      const { url } = await serve(mount(handler));
      const first = await send(`${url}/webhooks/partner`, {
        body: deepBody(20_000),
        headers: SECRET,
      });
      const again = await send(`${url}/webhooks/partner`, {
        body: deepBody(20_000),
        headers: SECRET,
      });
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(JSON.parse(again.body)).toEqual({ received: true, duplicate: true });
      expect({ runs, reported }).toEqual({ runs: 1, reported: [] });
    },
  );
});
