/**
 * The tracing guide's words on a failed attempt, over real loopback sockets: its `error.type` is
 * "the status code, `timeout`, or the connection failure's code", the call's is the SDK's error
 * class, and a retry event's `retry_after` says whether the wait is the one `Retry-After` asked for.
 */

import { createServer } from 'node:net';
import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  PartnerClient,
  ResponseTooLargeError,
} from '../../src/index';
import { serversClosedAfterEach } from '../helpers/leak-check';
import { spanTree, useOtel } from '../helpers/otel-harness';
import { json, sequence } from '../helpers/stub-server';

const otel = useOtel();
const { stub } = serversClosedAfterEach();

const clientOf = (baseUrl: string, options: { timeout?: number; maxRetries?: number } = {}) =>
  new PartnerClient({ baseUrl, clientToken: 'tok-failure-types', logLevel: 'off', ...options });

describe('the error.type of a failed attempt', () => {
  it('is timeout for a body that stalls after its headers, on the attempt and on the retry event', async () => {
    const server = await stub(
      sequence(
        (_r, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"data":'); // and nothing more
        },
        (_r, res) => json(res, 200, { ok: true }),
      ),
    );
    const client = clientOf(server.baseUrl, { timeout: 300, maxRetries: 1 });
    await expect(client.request({ method: 'GET', path: '/products' })).resolves.toEqual({
      ok: true,
    });
    const [call] = spanTree(otel().spans());
    const [stalled, answered] = call!.children;
    expect(stalled!.attributes['error.type']).toBe('timeout');
    expect(stalled!.status).toBe(SpanStatusCode.ERROR);
    expect(answered!.attributes['http.response.status_code']).toBe(200);
    expect(call!.events).toEqual([
      {
        name: 'partner_sdk.retry',
        attributes: expect.objectContaining({
          'partner_sdk.retry.retry_after': false,
          'error.type': 'timeout',
        }),
      },
    ]);
  });

  it("is the connection failure's code for a body cut off mid-way, never a class name", async () => {
    const server = await stub(
      sequence(
        (_r, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
          res.write('{"data":');
          setTimeout(() => res.socket?.destroy(), 20);
        },
        (_r, res) => json(res, 200, { ok: true }),
      ),
    );
    await clientOf(server.baseUrl).request({ method: 'GET', path: '/products' });
    const [call] = spanTree(otel().spans());
    const type = call!.children[0]!.attributes['error.type'];
    expect(type).toMatch(/^[A-Z][A-Z0-9_]+$/);
  });

  it('is ResponseTooLargeError for a body past maxResponseBytes, on the attempt as on the call', async () => {
    const server = await stub((_r, res) => json(res, 200, { data: 'x'.repeat(4096) }));
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'tok-failure-types',
      logLevel: 'off',
      maxResponseBytes: 1024,
    });
    await expect(client.request({ method: 'GET', path: '/products' })).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    const [call] = spanTree(otel().spans());
    expect(call!.attributes['error.type']).toBe('ResponseTooLargeError');
    expect(call!.children).toHaveLength(1);
    expect(call!.children[0]!.attributes['error.type']).toBe('ResponseTooLargeError');
  });

  it('is timeout for an answer whose headers never come, and the call fails as APIConnectionTimeoutError', async () => {
    const server = await stub(() => new Promise(() => {}));
    const client = clientOf(server.baseUrl, { timeout: 200, maxRetries: 0 });
    const error = await client
      .request({ method: 'GET', path: '/products' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    const [call] = spanTree(otel().spans());
    expect(call!.children[0]!.attributes['error.type']).toBe('timeout');
    expect(call!.attributes['error.type']).toBe('APIConnectionTimeoutError');
    expect(call!.status).toBe(SpanStatusCode.ERROR);
  });

  it("is the connection failure's code for a refused connection, and the call's is its error class", async () => {
    // Reserve a port, then free it: nothing listens there any more.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = clientOf(`http://127.0.0.1:${port}/api/v1`, { maxRetries: 0 });
    const error = await client
      .request({ method: 'GET', path: '/products' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    const [call] = spanTree(otel().spans());
    const attempt = call!.children[0]!;
    expect(attempt.attributes['error.type']).toBe('ECONNREFUSED');
    expect(attempt.attributes['http.response.status_code']).toBeUndefined();
    expect(call!.attributes['error.type']).toBe('APIConnectionError');
    const durations = (await otel().points()).filter(
      (point) => point.metric === 'partner_sdk.operation.duration',
    );
    expect(durations.map((point) => point.attributes)).toEqual([
      {
        'partner_sdk.operation': 'request',
        'partner_sdk.outcome': 'error',
        'error.type': 'APIConnectionError',
      },
    ]);
  });
});

describe('the retry_after attribute of a retry event', () => {
  it.each(['soon', '-1', 'Tomorrow 1'])(
    'is false after a Retry-After of %j, which no wait was read from',
    async (retryAfter) => {
      const server = await stub(
        sequence(
          (_r, res) => json(res, 503, { message: 'busy' }, { 'retry-after': retryAfter }),
          (_r, res) => json(res, 200, { ok: true }),
        ),
      );
      await clientOf(server.baseUrl).request({ method: 'GET', path: '/products' });
      const [call] = spanTree(otel().spans());
      expect(call!.events).toEqual([
        {
          name: 'partner_sdk.retry',
          attributes: expect.objectContaining({
            'partner_sdk.retry.retry_after': false,
            'error.type': '503',
          }),
        },
      ]);
    },
  );
});
