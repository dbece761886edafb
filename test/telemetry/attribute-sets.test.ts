import { describe, expect, it } from 'vitest';
import { type Point, spanTree, useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

const otel = useOtel();

/** The points of `metric`, as attributes and value, in a stable order. */
function pointsOf(points: Point[], metric: string) {
  return points
    .filter((point) => point.metric === metric)
    .map(({ attributes, value }) => ({ attributes, value }))
    .sort((a, b) => JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)));
}

describe('the attribute sets shared by the calls of one client', () => {
  it('keeps each error type, operation and status apart in the retry, call and attempt metrics', async () => {
    const { mock, client } = kit();
    const ebook = mock.products.ebook.hash;
    await client.products.retrieve(ebook); // logged in
    for (let round = 0; round < 2; round++) {
      mock.failNext({ status: 429, retryAfter: 1, path: `/products/${ebook}` });
      mock.failNext({ status: 503, path: `/products/${ebook}` });
      await client.products.retrieve(ebook);
    }
    await expect(client.products.retrieve('no-such-product')).rejects.toThrow();
    mock.failNext({ status: 400, path: /^\/products\/[^/]+$/ });
    await expect(client.products.retrieve(ebook)).rejects.toThrow();
    await client.products.list();

    const points = await otel().points();
    const operation = { 'partner_sdk.operation': 'products.retrieve' };
    expect(pointsOf(points, 'partner_sdk.retries')).toEqual([
      { attributes: { ...operation, 'error.type': '429' }, value: 2 },
      { attributes: { ...operation, 'error.type': '503' }, value: 2 },
    ]);
    // The login the first call waited for is a call of its own.
    const calls = pointsOf(points, 'partner_sdk.operation.duration').filter(
      ({ attributes }) => attributes['partner_sdk.operation'] !== 'auth.login',
    );
    expect(calls.map(({ attributes, value }) => [attributes, value])).toEqual([
      [{ 'partner_sdk.operation': 'products.list', 'partner_sdk.outcome': 'success' }, 1],
      [{ ...operation, 'partner_sdk.outcome': 'error', 'error.type': 'BadRequestError' }, 1],
      [{ ...operation, 'partner_sdk.outcome': 'error', 'error.type': 'NotFoundError' }, 1],
      [{ ...operation, 'partner_sdk.outcome': 'success' }, 3],
    ]);
    const server = {
      'http.request.method': 'GET',
      'server.address': new URL(mock.baseUrl).hostname,
      'server.port': Number(new URL(mock.baseUrl).port || 443),
    };
    const product = { ...server, 'url.template': '/products/{productHash}' };
    const attempts = pointsOf(points, 'http.client.request.duration').filter(
      ({ attributes }) => attributes['http.request.method'] === 'GET',
    );
    expect(attempts.map(({ attributes, value }) => [attributes, value])).toEqual(
      [
        [{ ...server, 'url.template': '/products', 'http.response.status_code': 200 }, 1],
        [{ ...product, 'http.response.status_code': 200 }, 3],
        [{ ...product, 'http.response.status_code': 400, 'error.type': '400' }, 1],
        [{ ...product, 'http.response.status_code': 404, 'error.type': '404' }, 1],
        [{ ...product, 'http.response.status_code': 429, 'error.type': '429' }, 2],
        [{ ...product, 'http.response.status_code': 503, 'error.type': '503' }, 2],
      ].sort((a, b) => JSON.stringify(a[0]).localeCompare(JSON.stringify(b[0]))),
    );
  });
});

describe('the attempt attributes of a call that moves to another server', () => {
  it('names each hop its own server, even one whose origin starts like the first', async () => {
    // Two servers whose origins differ only by the digits after the port's first one.
    const first = 'http://127.0.0.1:8';
    const second = 'http://127.0.0.1:8080';
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const url = new Request(input, init).url;
      if (url.startsWith(`${first}/`))
        return new Response(null, { status: 307, headers: { location: `${second}/api/v1/moved` } });
      return Response.json({ moved: true });
    };
    const { client } = kit({ baseUrl: `${first}/api/v1`, fetch, clientToken: 'token-1' });
    const seller = client.forUser('public-token-1');
    for (let call = 0; call < 2; call++)
      expect(await seller.request({ method: 'GET', path: '/moved' })).toEqual({ moved: true });
    const calls = spanTree(otel().spans());
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      const servers = call.children.map((attempt) => [
        attempt.attributes['server.port'],
        attempt.attributes['http.response.status_code'],
      ]);
      expect(servers).toEqual([
        [8, 307],
        [8080, 200],
      ]);
    }
  });
});
