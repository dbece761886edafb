/**
 * The receiver at a busy partner's load, from outside: a real `node:http` server in a child process
 * (receiver-load.child.ts, where memory is measured), deliveries sent over 32 keep-alive
 * connections, then the same deliveries again; handlers slower than the deliveries arrive; and
 * senders that trickle, flood or hold connections. The numbers are scaled down from a busy
 * partner's (20,000 deliveries) to keep each test short.
 */

import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { subscriptionEndedEvent } from '../../src/testing/index';
import { type Child, startChild } from '../helpers/children';

const fixture = 'test/webhooks/receiver-load.child.ts';
const TOKEN = 'load-token';

interface Report {
  events: number;
  calls: number;
  calledTwice: number;
  running: number;
  mostRunning: number;
  finished: number;
  storeSize: number;
  heapMb: number;
}

let child: Child | undefined;
afterEach(() => child?.close());

async function receiver(env: Record<string, string>): Promise<{ url: string; child: Child }> {
  child = startChild(fixture, env);
  const { url } = await child.next<{ url: string }>(60_000);
  return { url, child };
}

const report = (running: Child) => running.ask<Report>({ op: 'report' });

function bodies(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify(subscriptionEndedEvent({ subscription_code: `sub_${from + i}` })),
  );
}

/** Sends every body, `connections` at a time, and counts the answers by status. */
async function sendAll(
  url: string,
  items: string[],
  connections: number,
): Promise<{ statuses: Record<number, number>; ms: number }> {
  const statuses: Record<number, number> = {};
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let body = items[next++]; body !== undefined; body = items[next++]) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-token': TOKEN },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { statuses, ms: performance.now() - started };
}

describe('throughput and the in-memory dedupe store', () => {
  it.each(['node', 'fetch'])(
    '1,000 deliveries over 32 connections to handler.%s, then the same again: each handled once, the redeliveries answered 200 without a call, memory flat',
    async (face) => {
      const { url, child: running } = await receiver({ MAX_ENTRIES: '5000', FACE: face });
      const items = bodies(1_000);
      const first = await sendAll(url, items, 32);
      const afterFirst = await report(running);
      const again = await sendAll(url, items, 32);
      const afterAgain = await report(running);
      expect(first.statuses).toEqual({ 200: 1_000 });
      expect(again.statuses).toEqual({ 200: 1_000 });
      expect(afterAgain).toMatchObject({ events: 1_000, calls: 1_000, calledTwice: 0 });
      expect(afterAgain.storeSize).toBe(1_000);
      expect(afterAgain.heapMb - afterFirst.heapMb).toBeLessThan(2);
    },
    60_000,
  );

  it('the default store keeps 10,000 keys: a redelivery after 10,000 other deliveries runs its handler again, and the store stays at 10,000', async () => {
    const { url, child: running } = await receiver({});
    const first = bodies(1);
    expect((await sendAll(url, first, 1)).statuses).toEqual({ 200: 1 });
    expect((await sendAll(url, bodies(10_000, 1), 32)).statuses).toEqual({ 200: 10_000 });
    expect((await sendAll(url, first, 1)).statuses).toEqual({ 200: 1 });
    const after = await report(running);
    expect(after).toMatchObject({ events: 10_001, calls: 10_002, calledTwice: 1 });
    expect(after.storeSize).toBe(10_000);
  }, 60_000);
});

describe('handlers slower than deliveries arrive', () => {
  it('500 deliveries at once, each handler taking 5 s: all run together (nothing bounds them) and each is answered 200 once its handler finished', async () => {
    // Handlers long enough that all 500 have arrived before the first ends, on a busy machine too.
    const { url, child: running } = await receiver({ HANDLER_MS: '5000' });
    const { statuses, ms } = await sendAll(url, bodies(500), 500);
    expect(statuses).toEqual({ 200: 500 });
    // Answered once its handler finished, not before: no answer came sooner than a handler takes.
    expect(ms).toBeGreaterThanOrEqual(4_900);
    expect(await report(running)).toMatchObject({ mostRunning: 500, finished: 500, calls: 500 });
  }, 60_000);

  it('past handlerTimeoutMs each is answered 500 at its time-out, never 200; the redelivery runs the handler again beside the abandoned run', async () => {
    // Handlers far slower than their time-out, so that no answer can have waited for one to end.
    // (The time-out bounds each step: on a busy machine a delivery may time out in its dedupe
    // claim, before its handler is called, so the calls are counted, not assumed.)
    const { url, child: running } = await receiver({
      HANDLER_MS: '10000',
      HANDLER_TIMEOUT_MS: '1000',
    });
    const items = bodies(500);
    const first = await sendAll(url, items, 500);
    expect(first.statuses).toEqual({ 500: 500 });
    const during = await report(running);
    expect(during.finished).toBe(0);
    expect(during.calls).toBeGreaterThan(0);
    const again = await sendAll(url, items, 500);
    expect(again.statuses).toEqual({ 500: 500 });
    const after = await report(running);
    expect(after.calledTwice).toBeGreaterThan(0);
    expect(after.calledTwice).toBeLessThanOrEqual(during.calls);
  }, 60_000);
});

/** Writes `head` on a raw connection, then lets `feed` write the rest; resolves to the status line. */
function rawRequest(
  port: number,
  head: string,
  feed: (socket: Socket) => void = () => undefined,
): Promise<{ statusLine: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      feed(socket);
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 15 s: ${answer}`));
    }, 15_000);
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (!answer.includes('\r\n')) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({
        statusLine: answer.slice(0, answer.indexOf('\r\n')),
        ms: performance.now() - started,
      });
    });
    socket.on('error', () => undefined);
  });
}

const head = (extra: string) =>
  `POST /webhooks HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nx-webhook-token: ${TOKEN}\r\n${extra}\r\n`;

describe('hostile senders', () => {
  it('a body trickled a byte a second is answered 408 at bodyTimeoutMs; 100 MB, 413; 1 MB of headers, 431 from Node; memory flat', async () => {
    const { url, child: running } = await receiver({ BODY_TIMEOUT_MS: '1500' });
    const port = Number(new URL(url).port);
    const before = await report(running);
    const trickled = await rawRequest(port, head('content-length: 1000\r\n'), (socket) => {
      const drip = setInterval(() => socket.write('{'), 1_000);
      socket.once('close', () => clearInterval(drip));
    });
    expect(trickled.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    const flood = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-token': TOKEN },
      body: new Uint8Array(100 * 2 ** 20).fill(0x20),
      signal: AbortSignal.timeout(15_000),
    }).then(
      async (answer) => {
        await answer.arrayBuffer();
        return { status: answer.status, connection: answer.headers.get('connection') };
      },
      (error: { cause?: { code?: string } }) => ({ closedMidBody: error.cause?.code }),
    );
    // The receiver answers 413 and closes: a sender still writing may meet the close first.
    expect([
      { status: 413, connection: 'close' },
      { closedMidBody: 'EPIPE' },
      { closedMidBody: 'ECONNRESET' },
    ]).toContainEqual(flood);
    const headers = await rawRequest(port, head(`x-padding: ${'a'.repeat(2 ** 20)}\r\n`));
    expect(headers.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    const after = await report(running);
    expect(after.calls).toBe(0);
    expect(after.heapMb - before.heapMb).toBeLessThan(2);
  }, 20_000);

  it('1,000 keep-alive connections left idle after a delivery are closed by Node, and so are connections that never send a request once server.timeout is set', async () => {
    const { url } = await receiver({ SERVER_TIMEOUT_MS: '2000' });
    const port = Number(new URL(url).port);
    const body = bodies(1)[0]!;
    const open = (request: string) =>
      new Promise<Promise<void>>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          if (request === '') resolve(closed);
          else socket.write(request);
        });
        const closed = new Promise<void>((done) => socket.once('close', () => done()));
        socket.once('data', () => resolve(closed));
        socket.once('error', reject);
      });
    const delivered = head(`content-length: ${Buffer.byteLength(body)}\r\n`) + body;
    const idle = await Promise.all([
      ...Array.from({ length: 1_000 }, () => open(delivered)),
      ...Array.from({ length: 100 }, () => open('')),
    ]);
    // server.timeout closes both (bounded by the test's time-out); without it Node keeps a socket
    // that never sent a request.
    await Promise.all(idle);
  }, 20_000);
});
