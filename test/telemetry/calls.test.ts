import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing/index';
import { shape, spanTree, useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

const otel = useOtel();

describe('a call traced with the real OpenTelemetry SDK', () => {
  it('records a plain call as the operation span over one HTTP attempt span', async () => {
    const mock = createMockPartnerApi();
    const { client } = kit(
      { clientToken: mock.credentials.clientToken, clientId: undefined, clientSecret: undefined },
      mock,
    );
    const hash = mock.products.ebook.hash;
    await client.products.retrieve(hash);
    const [call, ...others] = spanTree(otel().spans());
    expect(others).toEqual([]);
    expect(call?.name).toBe('products.retrieve');
    expect(call?.kind).toBe(SpanKind.INTERNAL);
    expect(call?.attributes).toEqual({ 'partner_sdk.operation': 'products.retrieve' });
    expect(call?.children).toHaveLength(1);
    const attempt = call!.children[0]!;
    expect(attempt.name).toBe('GET /products/{productHash}');
    expect(attempt.kind).toBe(SpanKind.CLIENT);
    expect(attempt.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': new URL(mock.baseUrl).hostname,
      'server.port': Number(new URL(mock.baseUrl).port || 443),
      'url.template': '/products/{productHash}',
      'http.response.status_code': 200,
    });
    expect(
      JSON.stringify(
        otel()
          .spans()
          .map((span) => span.attributes),
      ),
    ).not.toContain(hash);
  });

  it('puts the login that a first call waits for under that call, with a login event', async () => {
    const { mock, client } = kit();
    await client.products.retrieve(mock.products.ebook.hash);
    const [call] = spanTree(otel().spans());
    expect(shape([call!])).toEqual([
      'products.retrieve',
      ['auth.login', ['POST /auth'], 'GET /products/{productHash}'],
    ]);
    expect(call!.events.map((event) => event.name)).toEqual(['partner_sdk.login']);
  });

  it('records a retried call: an attempt span per try, the resend count and a retry event with its Retry-After wait', async () => {
    const { mock, client } = kit();
    await client.products.retrieve(mock.products.ebook.hash); // logged in
    otel().exporter.reset();
    mock.failNext({ status: 429, retryAfter: 2, path: `/products/${mock.products.ebook.hash}` });
    await client.products.retrieve(mock.products.ebook.hash);
    const [call] = spanTree(otel().spans());
    const [first, second] = call!.children;
    expect(first!.attributes['http.response.status_code']).toBe(429);
    expect(first!.attributes['error.type']).toBe('429');
    expect(first!.status).toBe(SpanStatusCode.ERROR);
    expect(first!.attributes['http.request.resend_count']).toBeUndefined();
    expect(second!.attributes['http.request.resend_count']).toBe(1);
    expect(second!.attributes['http.response.status_code']).toBe(200);
    expect(call!.events).toEqual([
      {
        name: 'partner_sdk.retry',
        attributes: {
          'partner_sdk.retry.number': 1,
          'partner_sdk.retry.wait_ms': 2000,
          'partner_sdk.retry.retry_after': true,
          'error.type': '429',
        },
      },
    ]);
    expect(call!.status).toBe(SpanStatusCode.UNSET);
    const points = await otel().points();
    const counted = (metric: string) => points.filter((point) => point.metric === metric);
    expect(counted('partner_sdk.retries')[0]?.value).toBe(1);
    expect(counted('partner_sdk.rate_limited')[0]?.value).toBe(1);
    expect(counted('http.client.request.duration').map((point) => point.attributes)).toContainEqual(
      {
        'http.request.method': 'GET',
        'server.address': new URL(mock.baseUrl).hostname,
        'server.port': Number(new URL(mock.baseUrl).port || 443),
        'url.template': '/products/{productHash}',
        'http.response.status_code': 429,
        'error.type': '429',
      },
    );
    // The answered attempt's point is its own: nothing of the failed one's leaks into it.
    expect(counted('http.client.request.duration').map((point) => point.attributes)).toContainEqual(
      {
        'http.request.method': 'GET',
        'server.address': new URL(mock.baseUrl).hostname,
        'server.port': Number(new URL(mock.baseUrl).port || 443),
        'url.template': '/products/{productHash}',
        'http.response.status_code': 200,
      },
    );
    expect(counted('partner_sdk.rate_limited')[0]?.attributes['error.type']).toBe('429');
  });

  it('records a re-login: the refused attempt, a relogin event, the login span and the replay', async () => {
    const { mock, client } = kit();
    await client.products.retrieve(mock.products.ebook.hash);
    otel().exporter.reset();
    mock.expireTokens();
    await client.products.retrieve(mock.products.ebook.hash);
    const [call] = spanTree(otel().spans());
    expect(shape([call!])).toEqual([
      'products.retrieve',
      ['GET /products/{productHash}', 'auth.login', ['POST /auth'], 'GET /products/{productHash}'],
    ]);
    expect(call!.children[0]!.attributes['http.response.status_code']).toBe(401);
    expect(call!.children[2]!.attributes['http.request.resend_count']).toBe(1);
    expect(call!.events.map((event) => event.name)).toEqual(['partner_sdk.relogin']);
    const relogins = (await otel().points()).filter((p) => p.metric === 'partner_sdk.relogins');
    expect(relogins).toEqual([
      {
        metric: 'partner_sdk.relogins',
        attributes: { 'partner_sdk.operation': 'products.retrieve' },
        value: 1,
      },
    ]);
  });

  it("records a token function's new value after a 401 as a relogin too, with no login span", async () => {
    const mock = createMockPartnerApi();
    let asked = 0;
    // The first value is refused by the service; every later one is its own token.
    const clientToken = async () => (asked++ === 0 ? 'tok-stale-1' : mock.credentials.clientToken);
    const { client } = kit({ clientToken, clientId: undefined, clientSecret: undefined }, mock);
    await client.products.retrieve(mock.products.ebook.hash);
    const [call] = spanTree(otel().spans());
    expect(shape([call!])).toEqual([
      'products.retrieve',
      ['GET /products/{productHash}', 'GET /products/{productHash}'],
    ]);
    expect(call!.events.map((event) => event.name)).toEqual(['partner_sdk.relogin']);
    const relogins = (await otel().points()).filter((p) => p.metric === 'partner_sdk.relogins');
    expect(relogins.map((point) => point.value)).toEqual([1]);
  });

  it('records the call duration by operation and outcome, with the error class of a failed call', async () => {
    const { mock, client } = kit({ maxRetries: 0 });
    await client.products.retrieve(mock.products.ebook.hash);
    await expect(client.products.retrieve('no-such-product')).rejects.toThrow();
    const calls = (await otel().points()).filter(
      (point) => point.metric === 'partner_sdk.operation.duration',
    );
    expect(calls.map((point) => point.attributes)).toEqual(
      expect.arrayContaining([
        { 'partner_sdk.operation': 'products.retrieve', 'partner_sdk.outcome': 'success' },
        {
          'partner_sdk.operation': 'products.retrieve',
          'partner_sdk.outcome': 'error',
          'error.type': 'NotFoundError',
        },
      ]),
    );
    const failed = spanTree(otel().spans()).at(-1)!;
    expect(failed.status).toBe(SpanStatusCode.ERROR);
    expect(failed.attributes['error.type']).toBe('NotFoundError');
  });
});
