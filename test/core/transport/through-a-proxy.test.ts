/**
 * A partner behind an HTTP forward proxy, as the README sets one up (undici's `ProxyAgent`, its
 * `fetch` given the platform's `Request` in parts): every call goes through the proxy, the login
 * included; the SDK's credentials reach the proxy only on requests to the service's origin; and a
 * proxy's own refusal (407, 502, a refused tunnel, no proxy at all) is a typed error that says what
 * happened and quotes no secret.
 */

import { APIConnectionError, APIError, type FetchLike, PartnerClient } from 'partner-sdk';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ForwardProxy,
  type ProxyAnswer,
  startForwardProxy,
} from '../../helpers/forward-proxy';
import { json, type StubServer, startStub, withLogin } from '../../helpers/stub-server';

const SECRET = 'proxy-test-client-secret';
const SELLER = 'proxy-test-seller-token';

const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** The README's `fetch` through a proxy. */
function throughProxy(proxyUrl: string): FetchLike {
  const proxy = new ProxyAgent(proxyUrl);
  closing.push(() => proxy.close());
  return async (input, init) => {
    const request = new Request(input, init);
    return undiciFetch(request.url, {
      method: request.method,
      headers: [...request.headers],
      body: request.body && (await request.arrayBuffer()),
      redirect: request.redirect,
      signal: request.signal,
      dispatcher: proxy,
    });
  };
}

async function proxy(answer?: (method: string) => ProxyAnswer | undefined): Promise<ForwardProxy> {
  const started = await startForwardProxy(answer && ((request) => answer(request.method)));
  closing.push(() => started.close());
  return started;
}

async function stub(handler: Parameters<typeof startStub>[0]): Promise<StubServer> {
  const started = await startStub(handler);
  closing.push(() => started.close());
  return started;
}

function clientVia(baseUrl: string, through: ForwardProxy, maxRetries = 0) {
  return new PartnerClient({
    baseUrl,
    clientId: 'proxy-test-client',
    clientSecret: SECRET,
    fetch: throughProxy(through.url),
    logLevel: 'off',
    maxRetries,
  });
}

const PRODUCT = { hash: 'prd_1', name: 'Course' };

describe('calls through a forward proxy', () => {
  it("sends the login and every call through it, the credentials only on the service's origin", async () => {
    const files = await stub((_request, res) => json(res, 200, PRODUCT));
    const elsewhere = `http://files.proxied.test:${new URL(files.origin).port}`;
    const api = await stub(
      withLogin((request, res) => {
        if (request.path === '/products/prd_1') return json(res, 200, PRODUCT);
        res.writeHead(302, { location: `${elsewhere}/files/prd_1.json` });
        res.end();
      }),
    );
    const service = `http://api.proxied.test:${new URL(api.origin).port}`;
    // Names only the proxy resolves: a call that went around it would fail.
    const through = await startForwardProxy(undefined, {
      'api.proxied.test': '127.0.0.1',
      'files.proxied.test': '127.0.0.1',
    });
    closing.push(() => through.close());
    const seller = clientVia(`${service}/api/v1`, through).forUser(SELLER);

    await expect(seller.products.retrieve('prd_1')).resolves.toMatchObject(PRODUCT);
    await expect(seller.products.retrieve('prd_moved')).resolves.toMatchObject(PRODUCT);
    const file = await seller.statements.download({ url: `${elsewhere}/files/statement.csv` });
    await expect(file.text()).resolves.toBe(JSON.stringify(PRODUCT));

    const seen = through.seen.map((r) => `${r.method} ${r.url}`);
    expect(seen).toEqual([
      `POST ${service}/api/v1/auth`,
      `GET ${service}/api/v1/products/prd_1`,
      `GET ${service}/api/v1/products/prd_moved`,
      `GET ${elsewhere}/files/prd_1.json`,
      `GET ${elsewhere}/files/statement.csv`,
    ]);
    const onService = through.seen.filter((r) => r.url.startsWith(service));
    for (const request of onService.slice(1)) {
      expect(request.headers['x-api-client-token']).toBe('login-token-1');
      expect(request.headers.authorization).toBe(`Bearer ${SELLER}`);
    }
    for (const offOrigin of through.seen.filter((r) => r.url.startsWith(elsewhere))) {
      expect(offOrigin.headers['x-api-client-token']).toBeUndefined();
      expect(offOrigin.headers.authorization).toBeUndefined();
    }
    // The service heard every call, through the proxy; the other origin only its file.
    expect(api.requests.map((r) => r.path)).toEqual([
      '/auth',
      '/products/prd_1',
      '/products/prd_moved',
    ]);
    expect(files.requests).toHaveLength(2);
  });

  it('says a 407 asking for proxy credentials in a typed error that quotes no secret, asked once', async () => {
    const service = await stub(withLogin((_request, res) => json(res, 200, PRODUCT)));
    // A proxy that echoes what it refused, the login's body among it.
    const through = await startForwardProxy((request) => ({
      status: 407,
      headers: { 'proxy-authenticate': 'Basic realm="corp"', 'content-type': 'text/plain' },
      body: `Proxy authentication required for ${request.method} ${request.url}: ${request.body}`,
    }));
    closing.push(() => through.close());

    const error = await clientVia(service.baseUrl, through, 2)
      .products.retrieve('prd_1')
      .catch((e: unknown) => e);

    // undici's ProxyAgent reads a 407 itself and fails the request: no answer reaches the SDK.
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/^POST \/auth → connection failed: .*\(407\)\)?$/);
    expect((error as Error).message).not.toContain('fetch failed');
    expect((error as Error).message).not.toContain(SECRET);
    // The proxy refused it before it went anywhere, and will again: asked once, nothing sent on.
    expect(through.seen).toHaveLength(1);
    expect(service.requests).toHaveLength(0);
  });

  it('fails a refund refused with 407 at once, never reading refunds it could not have made', async () => {
    const service = await stub((_request, res) => json(res, 500, {}));
    const through = await proxy(() => ({
      status: 407,
      headers: { 'proxy-authenticate': 'Basic' },
    }));
    const client = new PartnerClient({
      baseUrl: service.baseUrl,
      clientToken: 'proxy-test-client-token',
      fetch: throughProxy(through.url),
      logLevel: 'off',
    });

    const error = await client
      .forUser(SELLER)
      .refunds.request('trx_1')
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/^POST \/financial\/refund\/trx_1 → .*\(407\)/);
    expect(through.seen.map((r) => r.method)).toEqual(['POST']);
  });

  it('reads a 502 from a proxy that cannot reach the service as the status, retried as a 5xx', async () => {
    const service = await stub(withLogin((_request, res) => json(res, 200, PRODUCT)));
    const through = await proxy((method) =>
      method === 'GET'
        ? {
            status: 502,
            headers: { 'content-type': 'text/html' },
            body: '<html><body><h1>502 Bad Gateway</h1><p>squid</p></body></html>',
          }
        : undefined,
    );

    const error = await clientVia(service.baseUrl, through, 1)
      .products.retrieve('prd_1')
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(502);
    expect((error as APIError).message).toBe(
      'GET /products/prd_1 → 502 Bad Gateway: the service answered with an HTML page',
    );
    expect((error as APIError).body).toContain('squid');
    expect(through.seen.map((r) => r.method)).toEqual(['POST', 'GET', 'GET']);
  });

  it('says a refused tunnel to an https service names the 407, asked once', async () => {
    const through = await proxy(() => ({ status: 407 }));
    const error = await clientVia('https://127.0.0.1:40443/api/v1', through, 2)
      .products.retrieve('prd_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/^POST \/auth → connection failed: .*\(407\)/);
    expect((error as Error).message).not.toContain('fetch failed');
    // The proxy refused the tunnel, and would again: nothing reached the service.
    expect(through.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['CONNECT 127.0.0.1:40443']);
  });

  it('sends a refund again through a tunnel refused with 502, never reading refunds it could not have made', async () => {
    // The proxy could not reach the service: a repeat may get through, and nothing was sent.
    const through = await proxy(() => ({ status: 502 }));
    const client = new PartnerClient({
      baseUrl: 'https://127.0.0.1:40443/api/v1',
      clientToken: 'proxy-test-client-token',
      fetch: throughProxy(through.url),
      logLevel: 'off',
      maxRetries: 1,
    });

    const error = await client
      .forUser(SELLER)
      .refunds.request('trx_1')
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/^POST \/financial\/refund\/trx_1 → .*\(502\)/);
    expect(through.seen.map((r) => r.method)).toEqual(['CONNECT', 'CONNECT']);
  });

  it('says a proxy that cannot be reached refused the connection', async () => {
    const gone = await proxy();
    const url = gone.url;
    await gone.close();
    const service = await stub((_request, res) => json(res, 200, PRODUCT));
    const error = await new PartnerClient({
      baseUrl: service.baseUrl,
      clientToken: 'proxy-test-client-token',
      fetch: throughProxy(url),
      logLevel: 'off',
      maxRetries: 0,
    }).products
      .retrieve('prd_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(
      /^GET \/products\/prd_1 → connection failed: connect ECONNREFUSED 127\.0\.0\.1:\d+$/,
    );
    expect(service.requests).toHaveLength(0);
  });
});
