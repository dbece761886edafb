import { Agent, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockPartnerApi, type MockServer } from '../../src/testing';
import { waitFor } from '../helpers/waits';
import { call, clientHeaders, sellerHeaders } from './helpers';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function listen(mock = createMockPartnerApi()) {
  const server = await mock.listen();
  servers.push(server);
  return { mock, server };
}

describe('mock API fault injection on the fetch face', () => {
  it('fails the next matching requests with the status, Retry-After and body given', async () => {
    const mock = createMockPartnerApi();
    mock.failNext({ status: 429, times: 2, retryAfter: 3, path: '/products' });
    const first = await call(mock, 'GET', '/products');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('3');
    expect(first.body).toEqual({ message: 'Too Many Attempts.' });
    expect((await call(mock, 'GET', '/users/fee-tiers/history')).status).toBe(200);
    expect((await call(mock, 'GET', '/products')).status).toBe(429);
    expect((await call(mock, 'GET', '/products')).status).toBe(200);

    mock.failNext({ status: 500, body: { message: 'boom' } });
    expect((await call(mock, 'GET', '/products')).body).toEqual({ message: 'boom' });
    // Without a body, Laravel's words for the status, as the testing guide shows.
    mock.failNext({ status: 503 });
    mock.failNext({ status: 500 });
    expect((await call(mock, 'GET', '/products')).body).toEqual({
      message: 'Service Unavailable.',
    });
    expect((await call(mock, 'GET', '/products')).body).toEqual({ message: 'Server Error' });
  });

  it('answers a status that carries no body (204, 205, 304) without one, and refuses a body given with it', async () => {
    const mock = createMockPartnerApi();
    for (const status of [204, 205, 304]) {
      mock.failNext({ status, path: '/products' });
      const answer = await mock.fetch(`${mock.baseUrl}/products`, { headers: clientHeaders(mock) });
      expect(answer.status).toBe(status);
      expect(await answer.text()).toBe('');
      expect(() => mock.failNext({ status, body: { message: 'no' } })).toThrow(
        new RangeError(`failNext: body cannot be given with status ${status}, which carries none`),
      );
    }
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
  });

  it('refuses a fault it could not inject with a RangeError when it is queued', async () => {
    const mock = createMockPartnerApi();
    for (const options of [
      { status: 99 },
      { status: 600 },
      { status: 503.5 },
      { status: 503, times: 0 },
      { status: 503, times: -1 },
      { status: 503, times: Number.NaN },
      { delayMs: -5 },
      { status: 429, retryAfter: -1 },
    ]) {
      expect(() => mock.failNext(options), JSON.stringify(options)).toThrow(RangeError);
    }
    expect(() => mock.dropNext({ times: 0 })).toThrow(RangeError);
    // Nothing was queued by the refused calls: the next request is answered normally.
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
  });

  it('refuses, when it is queued, a fault no request could match, rather than never firing it', async () => {
    const mock = createMockPartnerApi();
    for (const path of [
      `${mock.baseUrl}/products`,
      '/api/v1/products',
      '/products?page=2',
      'products',
      '/products#top',
    ]) {
      expect(() => mock.failNext({ status: 503, path }), path).toThrow(
        new TypeError(
          `failNext: path must be a path under the API base without its query, such as '/products', got '${path}'`,
        ),
      );
      expect(() => mock.dropNext({ path }), path).toThrow(TypeError);
    }
    for (const method of ['get ', 'GET /products', '']) {
      expect(() => mock.failNext({ status: 503, method }), method).toThrow(
        new TypeError(`failNext: method must be an HTTP method such as 'GET', got '${method}'`),
      );
    }
    expect(() => mock.failNext({ status: 503, path: 42 as unknown as string })).toThrow(TypeError);
    expect(() => mock.failNext(undefined as never)).toThrow(
      new TypeError('failNext: the options must be an object, got undefined'),
    );
    // Nothing was queued by the refused calls.
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
  });

  it('matches a path with its trailing slash and a method in any case, as requests are routed', async () => {
    const mock = createMockPartnerApi();
    const product = `/products/${mock.products.course.hash}`;
    mock.failNext({ status: 503, path: `${product}/`, method: 'get' });
    expect((await call(mock, 'GET', product)).status).toBe(503);
    mock.dropNext({ path: '/products/', method: 'Get' });
    await expect(call(mock, 'GET', '/products')).rejects.toThrow(TypeError);
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
  });

  it('takes every matching request in turn with a global or sticky pattern', async () => {
    const mock = createMockPartnerApi();
    const pattern = /^\/products$/g;
    mock.failNext({ status: 503, path: pattern, times: 3 });
    mock.failNext({ status: 502, path: /^\/products$/y });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(mock, 'GET', '/products')).status);
    expect(statuses).toEqual([503, 503, 503, 502, 200]);
    // The partner's pattern is left as it was given.
    expect(pattern.lastIndex).toBe(0);
  });

  it('refuses a Retry-After no answer can carry, and a body that is no JSON, when queued', async () => {
    const mock = createMockPartnerApi();
    expect(() => mock.failNext({ status: 503, retryAfter: 1.5 })).toThrow(
      new RangeError('failNext: retryAfter cannot be 1.5'),
    );
    expect(() => mock.failNext({ status: 503, retryAfter: 'soon\r\nx-injected: 1' })).toThrow(
      new TypeError('failNext: retryAfter cannot be sent in a header: "soon\\r\\nx-injected: 1"'),
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const body of [{ amount: 1n }, cyclic, () => 'x']) {
      expect(() => mock.failNext({ status: 503, body })).toThrow(TypeError);
    }
    // A string Retry-After a header can carry is sent as given, malformed or not.
    mock.failNext({ status: 503, retryAfter: 'in a while' });
    expect((await call(mock, 'GET', '/products')).headers.get('retry-after')).toBe('in a while');
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
  });

  it('delays an answer and gives up with the request signal', async () => {
    const mock = createMockPartnerApi();
    mock.failNext({ delayMs: 5_000 });
    const started = Date.now();
    await expect(
      mock.fetch(`${mock.baseUrl}/products`, {
        headers: clientHeaders(mock),
        signal: AbortSignal.timeout(50),
      }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);

    mock.failNext({ delayMs: 30 });
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
  });

  it('drops a connection like fetch does on a reset', async () => {
    const mock = createMockPartnerApi();
    mock.dropNext({ path: '/auth' });
    const login = mock.fetch(`${mock.baseUrl}/auth`, { method: 'POST', body: '{}' });
    await expect(login).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { code: 'ECONNRESET' },
    });
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
  });

  it('drops a request on arrival, or once the service acted with afterHandling', async () => {
    const mock = createMockPartnerApi();
    const [first, second] = mock.transactions.refundable as [string, string];
    mock.dropNext({ path: `/financial/refund/${first}`, method: 'POST' });
    await expect(call(mock, 'POST', `/financial/refund/${first}`, {})).rejects.toThrow(TypeError);
    // Dropped on arrival: nothing was requested.
    expect((await call(mock, 'GET', `/financial/refund/${first}`)).body.data).toEqual([]);

    mock.dropNext({ path: `/financial/refund/${second}`, method: 'POST', afterHandling: true });
    await expect(call(mock, 'POST', `/financial/refund/${second}`, {})).rejects.toThrow(TypeError);
    // Dropped after handling: the refund exists, only its answer was lost.
    const listed = await call(mock, 'GET', `/financial/refund/${second}`);
    expect(listed.body.data).toMatchObject([{ transaction_hash: second, status: 'requested' }]);
    expect(() => mock.dropNext({ afterHandling: 'yes' as unknown as boolean })).toThrow(
      new TypeError('dropNext: afterHandling must be true or false, got yes'),
    );
  });

  it('uses faults in the order they were added, and clearFaults drops every queued one', async () => {
    const mock = createMockPartnerApi();
    mock.failNext({ status: 503 });
    mock.failNext({ status: 502 });
    expect((await call(mock, 'GET', '/products')).status).toBe(503);
    expect((await call(mock, 'GET', '/products')).status).toBe(502);

    mock.failNext({ status: 503, times: 3 });
    mock.failNext({ delayMs: 5_000 });
    mock.dropNext({ times: 2 });
    mock.clearFaults();
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
  });

  it('clearRequests empties mock.requests and every counter of mock.stats', async () => {
    const mock = createMockPartnerApi();
    await mock.fetch(`${mock.baseUrl}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: mock.credentials.clientId,
        client_secret: mock.credentials.clientSecret,
      }),
    });
    await call(mock, 'GET', '/products');
    expect(mock.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /auth',
      'GET /products',
    ]);
    expect(mock.stats).toMatchObject({ requests: 2, logins: 1 });
    mock.clearRequests();
    expect(mock.requests).toEqual([]);
    expect(mock.stats).toEqual({ requests: 0, logins: 0, rateLimited: 0 });
  });

  it('is a bound function that can be passed around bare', async () => {
    const mock = createMockPartnerApi();
    const { fetch } = mock;
    const res = await fetch(
      new Request(`${mock.baseUrl}/products`, { headers: clientHeaders(mock) }),
    );
    expect(res.status).toBe(200);
  });
});

describe('mock API loopback server', () => {
  it('serves the API under /api/v1 on 127.0.0.1 with Location on its own address', async () => {
    const { mock, server } = await listen();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const trx = mock.transactions.refundable[0]!;
    const res = await fetch(`${server.url}/financial/refund/${trx}`, {
      method: 'POST',
      headers: sellerHeaders(mock, { 'content-type': 'application/json' }),
      body: '{}',
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`${server.url}/financial/refund/${trx}/status`);
    await res.arrayBuffer();
  });

  it('hands out export download urls on its own address', async () => {
    const { mock, server } = await listen(createMockPartnerApi({ exportPolls: 0 }));
    const headers = sellerHeaders(mock, { 'content-type': 'application/json' });
    const started = await fetch(`${server.url}/financial/account-statement/export-report`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ format: 'csv', filter: { betweenDates: '01/01/2025,31/01/2025' } }),
      signal: AbortSignal.timeout(5_000),
    });
    const { data } = (await started.json()) as { data: { hash: string } };
    const status = await fetch(
      `${server.url}/financial/account-statement/export-report/${data.hash}`,
      {
        headers,
        signal: AbortSignal.timeout(5_000),
      },
    );
    const { data: done } = (await status.json()) as { data: { url: string } };
    expect(done.url.startsWith(new URL(server.url).origin)).toBe(true);
    const file = await fetch(done.url, { signal: AbortSignal.timeout(5_000) });
    expect(await file.text()).toMatch(/^data;descricao/);
  });

  it('names the caller address in the origin 403', async () => {
    const { mock, server } = await listen();
    mock.setOriginAllowed(false);
    const res = await fetch(`${server.url}/products`, {
      headers: clientHeaders(mock),
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toContain('127.0.0.1');
  });

  it('fails and drops requests on the real socket', async () => {
    const { mock, server } = await listen();
    mock.failNext({ status: 503, retryAfter: 1 });
    const failed = await fetch(`${server.url}/products`, {
      headers: clientHeaders(mock),
      signal: AbortSignal.timeout(5_000),
    });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('1');
    await failed.arrayBuffer();

    mock.dropNext();
    const dropped = fetch(`${server.url}/products`, {
      headers: clientHeaders(mock),
      signal: AbortSignal.timeout(5_000),
    });
    await expect(dropped).rejects.toMatchObject({ name: 'TypeError' });
    const after = await fetch(`${server.url}/products`, {
      headers: clientHeaders(mock),
      signal: AbortSignal.timeout(5_000),
    });
    expect(after.status).toBe(200);
    await after.arrayBuffer();
  });

  it('drops the answer after the service acted with afterHandling, on the real socket', async () => {
    const { mock, server } = await listen();
    const trx = mock.transactions.refundable[0]!;
    const refund = () =>
      fetch(`${server.url}/financial/refund/${trx}`, {
        method: 'POST',
        headers: sellerHeaders(mock),
        signal: AbortSignal.timeout(5_000),
      });
    mock.dropNext({ path: `/financial/refund/${trx}`, method: 'POST', afterHandling: true });
    await expect(refund()).rejects.toMatchObject({ name: 'TypeError' });
    // The refund was requested all the same: asked again, the service answers with it (spec §3).
    const again = await refund();
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: { status: string } }).data.status).toBe('requested');
  });

  it('parses multipart on the real socket', async () => {
    const { mock, server } = await listen();
    const form = new FormData();
    form.set('name', 'M');
    const res = await fetch(`${server.url}/users/update`, {
      method: 'POST',
      headers: clientHeaders(mock, { Authorization: `Bearer ${mock.sellers.person.publicToken}` }),
      body: form,
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: Record<string, string[]> };
    expect(body.errors).toHaveProperty('name');
    expect(body.errors).toHaveProperty('address');
  });

  it('closes kept-alive connections and delayed requests on close', async () => {
    const mock = createMockPartnerApi();
    const server = await mock.listen();
    const agent = new Agent({ keepAlive: true });
    const get = () =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          `${server.url}/products`,
          { agent, headers: clientHeaders(mock) },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await get()).toBe(200);
    mock.failNext({ delayMs: 10_000 });
    const received = mock.requests.length;
    const pending = get().catch((error: Error) => error);
    await waitFor(() => mock.requests.length > received, 'the held request to reach the kit');
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await pending).toBeInstanceOf(Error);
    agent.destroy();
  });
});
