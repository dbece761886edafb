import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { clientOver } from '../../../src/client';
import type { ClientOptions } from '../../../src/core/options';
import { resolveOptions } from '../../../src/core/options/resolve';
import { Transport } from '../../../src/core/transport/engine';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  InternalServerError,
  PartnerClient,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
} from '../../../src/index';
import { json, type StubServer, sequence, startStub } from '../../helpers/stub-server';
import { type VirtualClock, virtualClock } from '../../helpers/virtual-clock';

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A client of `s` whose waits run on `clock`: a virtual one unless a test says otherwise. */
const clientFor = (
  s: StubServer,
  options: ClientOptions = {},
  clock: VirtualClock = virtualClock(),
) => {
  const all: ClientOptions = {
    baseUrl: s.baseUrl,
    clientToken: 'transport-token-1',
    logLevel: 'off',
    ...options,
  };
  return clientOver(new Transport(resolveOptions(all), undefined, clock), all);
};
const get = (client: PartnerClient, path = '/products') => client.request({ method: 'GET', path });

describe('retries over a real loopback server', () => {
  it('succeeds after two retries on 503, 503, 200', async () => {
    server = await startStub(
      sequence(
        (_r, res) => json(res, 503, { message: 'busy' }),
        (_r, res) => json(res, 503, { message: 'busy' }),
        (_r, res) => json(res, 200, { ok: true }),
      ),
    );
    await expect(get(clientFor(server))).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(3);
  });

  it.each([408, 429, 500, 502, 504, 507, 520, 599])('retries a %i', async (status) => {
    server = await startStub(
      sequence(
        (_r, res) => json(res, status, {}),
        (_r, res) => json(res, 200, { ok: true }),
      ),
    );
    await expect(get(clientFor(server))).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
  });

  it.each([400, 404, 409, 413, 422])('does not retry a %i', async (status) => {
    server = await startStub((_r, res) => json(res, status, {}));
    await expect(get(clientFor(server))).rejects.toHaveProperty('status', status);
    expect(server.requests).toHaveLength(1);
  });

  it('fails at once with maxRetries: 0', async () => {
    server = await startStub((_r, res) => json(res, 503, { message: 'busy' }));
    const error = await get(clientFor(server, { maxRetries: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('honours a per-call maxRetries over the client default', async () => {
    server = await startStub((_r, res) => json(res, 500, {}));
    const client = clientFor(server, { maxRetries: 0 });
    await expect(
      client.request({ method: 'GET', path: '/x' }, { maxRetries: 1 }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(2);
  });

  it('waits for Retry-After in seconds', async () => {
    server = await startStub(
      sequence(
        (_r, res) => json(res, 429, {}, { 'retry-after': '1' }),
        (_r, res) => json(res, 200, {}),
      ),
    );
    const clock = virtualClock();
    await get(clientFor(server, {}, clock));
    expect(clock.waits).toEqual([1_000]);
    expect(server.requests).toHaveLength(2);
  });

  it('waits for Retry-After given as an HTTP date', async () => {
    server = await startStub(
      sequence(
        (_r, res) =>
          json(res, 503, {}, { 'retry-after': new Date(Date.now() + 5_000).toUTCString() }),
        (_r, res) => json(res, 200, {}),
      ),
    );
    const clock = virtualClock();
    await get(clientFor(server, {}, clock));
    // HTTP dates have one-second precision: the date is four to five seconds ahead, and the wait
    // that less the answer's way back to the client (a loaded machine may take a while there).
    expect(clock.waits).toHaveLength(1);
    expect(clock.waits[0]).toBeGreaterThan(3_000);
    expect(clock.waits[0]).toBeLessThanOrEqual(5_000);
  });

  it('fails at once with RateLimitError when Retry-After is longer than the call has left', async () => {
    server = await startStub((_r, res) =>
      json(res, 429, { message: 'slow down' }, { 'retry-after': '30' }),
    );
    const clock = virtualClock();
    const error = await get(clientFor(server, { totalTimeout: 5_000 }, clock)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(30_000);
    expect(clock.waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('fails at once with the last error when the back-off would outlast totalTimeout', async () => {
    server = await startStub((_r, res) => json(res, 503, { message: 'busy' }));
    // The jitter fixed at half: waits of 150, 300, then 600 ms, which from 450 ms cannot end
    // before the 1 s deadline. (With real jitter a wait may end just before the deadline and
    // leave its attempt no time, which ends in a time-out instead: a rare, random outcome.) The
    // attempts take no time on the frozen clock: on a loaded machine their real half second
    // would leave no room for the second wait.
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const clock = virtualClock({ frozen: true });
    const started = clock.now();
    const error = await get(
      clientFor(server, { totalTimeout: 1_000, maxRetries: 10 }, clock),
    ).catch((e: unknown) => e);
    // The retries stop once the next wait cannot end in time, and the call reports the
    // service's answer, not a time-out of its own making.
    expect(error).toBeInstanceOf(InternalServerError);
    expect(clock.waits).toEqual([150, 300]);
    expect(server.requests).toHaveLength(3);
    expect(clock.now() - started).toBeLessThan(1_000);
  });

  it('does not start an attempt with less time left than the last answer took', async () => {
    const clock = virtualClock({ frozen: true });
    server = await startStub((_r, res) => {
      // A slow service: how long an answer takes is what this test is about. It takes its 5 s on
      // the call's clock alone, so that a loaded machine's own delays do not add to it.
      clock.advance(5_000);
      json(res, 503, { message: 'busy' });
    });
    // Jitter at half: attempt 1 answers at 5 s, a 150 ms wait, attempt 2 answers at 10.15 s.
    // A 300 ms wait would then leave the third attempt 2.35 s of the 12.8 s, less than the 5 s an
    // answer takes: it would end in a time-out, so the call ends now with the 503.
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const error = await get(
      clientFor(server, { totalTimeout: 12_800, maxRetries: 10 }, clock),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(clock.waits).toEqual([150]);
    expect(server.requests).toHaveLength(2);
  });

  it('does not replay a call that is not safe to replay after a 500', async () => {
    server = await startStub((_r, res) => json(res, 500, { message: 'boom' }));
    const client = clientFor(server);
    await expect(
      client.request({
        method: 'POST',
        path: '/financial/anticipation/confirm/a1',
        replay: 'never',
      }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it("replays an 'unsent' call after a 429 but not after a 500", async () => {
    server = await startStub(
      sequence(
        (_r, res) => json(res, 429, {}, { 'retry-after': '0' }),
        (_r, res) => json(res, 500, {}),
      ),
    );
    const client = clientFor(server);
    await expect(
      client.request({ method: 'POST', path: '/confirm', replay: 'unsent' }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(2);
  });
});

describe('connection failures', () => {
  it('turns a socket reset into APIConnectionError after retrying', async () => {
    server = await startStub((_r, res) => {
      res.socket?.destroy();
    });
    const error = await get(clientFor(server, { maxRetries: 1 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(server.requests).toHaveLength(2);
  });

  it('turns a refused connection into APIConnectionError', async () => {
    // Reserve a port, then free it: nothing listens there any more.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = new PartnerClient({
      baseUrl: `http://127.0.0.1:${port}/api/v1`,
      clientToken: 'tok-123456',
      maxRetries: 0,
    });
    const error = await get(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(String(error)).toMatch(/ECONNREFUSED/);
  });

  it('turns a stalled response into APIConnectionTimeoutError', async () => {
    server = await startStub(() => new Promise(() => {}));
    const error = await get(clientFor(server, { timeout: 200, maxRetries: 0 })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
  });

  it('times out a body that stalls after the headers', async () => {
    server = await startStub((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    const error = await get(
      clientFor(server, { timeout: 200, totalTimeout: 400, maxRetries: 0 }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('bounds the whole call, retries included, by totalTimeout', async () => {
    server = await startStub(() => new Promise(() => {}));
    // The jitter fixed at half: the first back-off is 150 ms, which leaves room for a second
    // attempt even when a loaded machine ends the first 300 ms time-out late.
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const clock = virtualClock();
    const started = clock.now();
    const error = await get(
      clientFor(server, { timeout: 300, totalTimeout: 1_500, maxRetries: 10 }, clock),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    // The second attempt starts at 450 ms (300 ms time-out, then 150 ms of back-off) and runs
    // until its own time-out or the deadline; a back-off that cannot end before the deadline
    // ends the call at once rather than waiting to fail.
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(clock.waits.length).toBeGreaterThanOrEqual(1);
    expect(clock.now() - started).toBeGreaterThanOrEqual(550);
    expect(clock.now() - started).toBeLessThan(5_000);
  });

  it('rejects promptly on abort and makes no further attempt', async () => {
    server = await startStub((_r, res) => json(res, 503, {}, { 'retry-after': '5' }));
    const controller = new AbortController();
    // A clock whose waits end only by an abort: the call is surely waiting when it comes.
    const clock = virtualClock({ hold: true });
    const pending = clientFor(server, {}, clock)
      .request({ method: 'GET', path: '/slow' }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(clock.waits).toEqual([5_000]), { timeout: 5_000 });
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(server.requests.filter((r) => r.path === '/slow')).toHaveLength(1);
  });

  it('rejects at once with a signal that is already aborted, sending nothing', async () => {
    server = await startStub((_r, res) => json(res, 200, {}));
    const error = await clientFor(server)
      .request({ method: 'GET', path: '/x' }, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('responses', () => {
  it('gives the parsed body and, with withResponse(), the response', async () => {
    server = await startStub((_r, res) =>
      json(res, 200, { name: 'Curso' }, { 'x-request-id': 'r-1' }),
    );
    const { data, response } = await get(clientFor(server)).withResponse();
    expect(data).toEqual({ name: 'Curso' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('r-1');
  });

  it('validates with the schema given to request()', async () => {
    server = await startStub((_r, res) => json(res, 200, { name: 'Curso', extra: 1 }));
    const schema = z.looseObject({ name: z.string() });
    const data = await clientFor(server).request({ method: 'GET', path: '/p', schema });
    expect(data.name).toBe('Curso');
  });

  it("throws ResponseValidationError with the raw body in 'strict', returns it in 'warn' and 'off'", async () => {
    server = await startStub((_r, res) => json(res, 200, { name: 42 }));
    const schema = z.looseObject({ name: z.string() });
    const strict = await clientFor(server)
      .request({ method: 'GET', path: '/p', schema })
      .catch((e: unknown) => e);
    expect(strict).toBeInstanceOf(ResponseValidationError);
    expect((strict as ResponseValidationError).body).toEqual({ name: 42 });
    expect((strict as ResponseValidationError).issues[0]?.path).toEqual(['name']);

    const warnings: string[] = [];
    const logger = { error() {}, warn: (m: string) => warnings.push(m), info() {}, debug() {} };
    const warn = await clientFor(server, {
      validateResponses: 'warn',
      logger,
      logLevel: 'warn',
    }).request({ method: 'GET', path: '/p', schema });
    expect(warn).toEqual({ name: 42 });
    expect(warnings.join('\n')).toMatch(/unexpected response shape/);
    const off = await clientFor(server, { validateResponses: 'off' }).request({
      method: 'GET',
      path: '/p',
      schema,
    });
    expect(off).toEqual({ name: 42 });
  });

  it('keeps a non-JSON error body as text', async () => {
    server = await startStub((_r, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html>Server Error</html>');
    });
    const error = (await get(clientFor(server, { maxRetries: 0 })).catch(
      (e: unknown) => e,
    )) as InternalServerError;
    expect(error.body).toBe('<html>Server Error</html>');
  });
});

describe('credentials and paths', () => {
  it('sends no credentials to another origin', async () => {
    server = await startStub((_r, res) => json(res, 200, {}));
    const other = await startStub((_r, res) => json(res, 200, {}));
    try {
      const seller = clientFor(server, {
        defaultHeaders: { 'X-Gateway-Key': 'partner-gateway-secret' },
      }).forUser('public-token-1');
      await seller.request({ method: 'GET', path: '/x' });
      // An absolute URL on another origin, as a Location header or an export file gives: the
      // transport is reached directly since resources build such calls themselves.
      const transport = (seller as unknown as { _transport: Transport })._transport;
      await transport.call(
        { method: 'GET', path: `${other.baseUrl}/file.csv`, replay: 'always' },
        { bearer: 'public-token-1' },
      );
      expect(other.requests[0]?.headers['x-api-client-token']).toBeUndefined();
      expect(other.requests[0]?.headers.authorization).toBeUndefined();
      expect(server.requests[0]?.headers['x-api-client-token']).toBe('transport-token-1');
      expect(server.requests[0]?.headers.authorization).toBe('Bearer public-token-1');
      expect(server.requests[0]?.headers['x-gateway-key']).toBe('partner-gateway-secret');
      expect(other.requests[0]?.headers['x-gateway-key']).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('follows a redirect to another origin without the client token or the bearer', async () => {
    const other = await startStub((_r, res) => json(res, 200, { moved: true }));
    try {
      server = await startStub((_r, res) => {
        res.writeHead(302, { location: `${other.baseUrl}/elsewhere` });
        res.end();
      });
      const data = await clientFor(server)
        .forUser('public-token-1')
        .request({ method: 'GET', path: '/moved' });
      expect(data).toEqual({ moved: true });
      expect(server.requests[0]?.headers['x-api-client-token']).toBe('transport-token-1');
      expect(other.requests[0]?.path).toBe('/elsewhere');
      expect(other.requests[0]?.headers['x-api-client-token']).toBeUndefined();
      expect(other.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('keeps credentials on a same-origin redirect and turns a 303 after POST into a GET', async () => {
    server = await startStub((req, res) => {
      if (req.path === '/start') {
        res.writeHead(303, { location: '/api/v1/result' });
        res.end();
        return;
      }
      json(res, 200, { method: req.method, body: req.body });
    });
    const data = await clientFor(server).request({
      method: 'POST',
      path: '/start',
      body: { a: 1 },
    });
    expect(data).toEqual({ method: 'GET', body: '' });
    expect(server.requests[1]?.headers['x-api-client-token']).toBe('transport-token-1');
  });

  it('stops after five redirects', async () => {
    server = await startStub((_r, res) => {
      res.writeHead(307, { location: '/api/v1/loop' });
      res.end();
    });
    await expect(clientFor(server).request({ method: 'GET', path: '/loop' })).rejects.toThrow(
      /more than 5 redirects/,
    );
    expect(server.requests).toHaveLength(6);
  });

  it('rejects a path that does not start with "/" before sending anything', async () => {
    server = await startStub((_r, res) => json(res, 200, {}));
    const pending = clientFor(server as StubServer).request({ method: 'GET', path: 'products' });
    await expect(pending).rejects.toBeInstanceOf(RequestValidationError);
    await expect(pending).rejects.toThrow(/starting with "\/"/);
    expect(server.requests).toHaveLength(0);
  });

  it('sends query parameters, leaving out undefined ones', async () => {
    server = await startStub((_r, res) => json(res, 200, {}));
    await clientFor(server).request({
      method: 'GET',
      path: '/products',
      query: { page: 2, per_page: undefined },
    });
    expect(server.requests[0]?.path).toBe('/products?page=2');
  });

  it('encodes query names and values', async () => {
    server = await startStub((_r, res) => json(res, 200, {}));
    await clientFor(server).request({
      method: 'GET',
      path: '/x',
      query: { 'filter[name]': 'Ação & co/2', flag: true },
    });
    const url = new URL(server.requests[0]?.path ?? '', 'http://x');
    expect(url.searchParams.get('filter[name]')).toBe('Ação & co/2');
    // A boolean as a form sends it, which a Laravel `boolean` rule reads (`true` as text it refuses).
    expect(url.searchParams.get('flag')).toBe('1');
  });
});
