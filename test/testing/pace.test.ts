import { afterEach, describe, expect, it, vi } from 'vitest';
import { PartnerClient } from '../../src';
import { createMockPartnerApi, type MockServer } from '../../src/testing';
import { call, clientHeaders } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Freezes `Date.now()` (the limiter's clock) and lets the test move it. */
function frozenClock(start = Date.UTC(2026, 0, 5, 12)) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(start);
  return { advance: (ms: number) => vi.setSystemTime(Date.now() + ms) };
}

describe('mock API rate limit', () => {
  it('answers 429 with Retry-After and X-RateLimit headers once the bucket is empty', async () => {
    const clock = frozenClock();
    const mock = createMockPartnerApi({ rateLimit: { requestsPerSecond: 1, burst: 2 } });

    const first = await call(mock, 'GET', '/products');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await call(mock, 'GET', '/products')).headers.get('x-ratelimit-remaining')).toBe('0');

    const refused = await call(mock, 'GET', '/products');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too Many Attempts.' });
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('x-ratelimit-reset'))).toBe(Math.ceil(Date.now() / 1000) + 1);
    expect(mock.stats).toMatchObject({ requests: 3, rateLimited: 1 });

    clock.advance(999);
    expect((await call(mock, 'GET', '/products')).status).toBe(429);
    clock.advance(1);
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
    expect(mock.stats.rateLimited).toBe(2);
  });

  it('refills at the sustained rate, never above the burst', async () => {
    const clock = frozenClock();
    const mock = createMockPartnerApi({ rateLimit: { requestsPerSecond: 10, burst: 3 } });
    clock.advance(60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(mock, 'GET', '/products')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    clock.advance(200);
    statuses.length = 0;
    for (let i = 0; i < 3; i++) statuses.push((await call(mock, 'GET', '/products')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('says in whole seconds how long a slow limit needs, rounded up', async () => {
    const clock = frozenClock();
    const mock = createMockPartnerApi({ rateLimit: { requestsPerSecond: 0.25, burst: 1 } });
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
    expect((await call(mock, 'GET', '/products')).headers.get('retry-after')).toBe('4');
    clock.advance(2_500);
    expect((await call(mock, 'GET', '/products')).headers.get('retry-after')).toBe('2');
  });

  it('defaults the burst to one second of requests', async () => {
    frozenClock();
    const mock = createMockPartnerApi({ rateLimit: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(mock, 'GET', '/products')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('counts the login like every other call under the API base', async () => {
    frozenClock();
    const mock = createMockPartnerApi({ rateLimit: { requestsPerSecond: 1, burst: 1 } });
    const { clientId, clientSecret } = mock.credentials;
    const login = await call(mock, 'POST', '/auth', {
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(login.status).toBe(200);
    expect((await call(mock, 'GET', '/products')).status).toBe(429);
    expect((await call(mock, 'POST', '/auth', {})).status).toBe(429);
  });

  it('is set, changed and removed at run time, each new limit starting full', async () => {
    frozenClock();
    const mock = createMockPartnerApi();
    for (let i = 0; i < 20; i++) expect((await call(mock, 'GET', '/products')).status).toBe(200);

    mock.setRateLimit({ requestsPerSecond: 1, burst: 1 });
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
    expect((await call(mock, 'GET', '/products')).status).toBe(429);

    mock.setRateLimit(2);
    expect((await call(mock, 'GET', '/products')).headers.get('x-ratelimit-limit')).toBe('2');
    expect((await call(mock, 'GET', '/products')).status).toBe(200);
    expect((await call(mock, 'GET', '/products')).status).toBe(429);

    mock.setRateLimit(undefined);
    const free = await call(mock, 'GET', '/products');
    expect(free.status).toBe(200);
    expect(free.headers.get('x-ratelimit-limit')).toBeNull();
    mock.clearRequests();
    expect(mock.stats.rateLimited).toBe(0);
  });

  it('takes the token as a request arrives, in arrival order, whatever holds it afterwards', async () => {
    const clock = frozenClock();
    const mock = createMockPartnerApi({ rateLimit: { requestsPerSecond: 1, burst: 1 } });
    // The first request is held on its way to the route; the second arrives a whole second later
    // and is answered first. Both arrived an interval apart: both are admitted.
    mock.failNext({ delayMs: 100, path: '/products', method: 'GET' });
    const held = call(mock, 'GET', '/products');
    await new Promise((resolve) => setTimeout(resolve, 20));
    clock.advance(1_000);
    const later = await call(mock, 'GET', '/products');
    expect(later.status).toBe(200);
    expect((await held).status).toBe(200);
    expect(mock.stats.rateLimited).toBe(0);
    // A third right behind the second is refused, though nothing was answered in between.
    expect((await call(mock, 'GET', '/products')).status).toBe(429);
  });

  it('refuses a limit that is not a positive number', () => {
    expect(() => createMockPartnerApi({ rateLimit: 0 })).toThrow(RangeError);
    expect(() => createMockPartnerApi({ rateLimit: { requestsPerSecond: Number.NaN } })).toThrow(
      RangeError,
    );
    const mock = createMockPartnerApi();
    expect(() => mock.setRateLimit({ requestsPerSecond: 5, burst: -1 })).toThrow(RangeError);
    expect(() => mock.setLatency(-1)).toThrow(RangeError);
    // A bucket that holds less than one request would never admit one, whatever the wait.
    expect(() => mock.setRateLimit({ requestsPerSecond: 5, burst: 0.5 })).toThrow(
      new RangeError('rateLimit.burst must be at least 1 (a request), got 0.5'),
    );
    expect(() =>
      createMockPartnerApi({ rateLimit: { requestsPerSecond: 5, burst: 0.99 } }),
    ).toThrow(RangeError);
    expect(() => mock.setLatency({ ms: 1, jitterMs: Number.POSITIVE_INFINITY })).toThrow(
      RangeError,
    );
  });

  it('is honoured by the SDK over a real socket: the 429 is retried after Retry-After', async () => {
    const mock = createMockPartnerApi({ rateLimit: { requestsPerSecond: 1, burst: 1 } });
    const server = await mock.listen();
    servers.push(server);
    const client = new PartnerClient({
      baseUrl: server.url,
      clientToken: mock.credentials.clientToken,
      maxRetries: 2,
      logLevel: 'off',
    });
    const [a, b] = await Promise.all([
      client.products.retrieve(mock.products.course.hash),
      client.products.retrieve(mock.products.ebook.hash),
    ]);
    expect([a.hash, b.hash]).toEqual([mock.products.course.hash, mock.products.ebook.hash]);
    expect(mock.stats.rateLimited).toBe(1);
    expect(mock.stats.requests).toBe(3);
  });
});

describe('mock API latency', () => {
  /** Whether `promise` has settled once pending callbacks have run. */
  async function settled(promise: Promise<unknown>): Promise<boolean> {
    let done = false;
    void promise.then(
      () => {
        done = true;
      },
      () => {
        done = true;
      },
    );
    await vi.advanceTimersByTimeAsync(0);
    return done;
  }

  it('holds every answer for the fixed delay given at creation', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const mock = createMockPartnerApi({ latencyMs: 100 });
    const answer = call(mock, 'GET', '/products');
    await vi.advanceTimersByTimeAsync(99);
    expect(await settled(answer)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(answer)).toBe(true);
    expect((await answer).status).toBe(200);
  });

  it('adds jitter within its bound, and is changed or removed at run time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const mock = createMockPartnerApi();
    expect(await settled(call(mock, 'GET', '/products'))).toBe(true);

    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    mock.setLatency({ ms: 10, jitterMs: 40 });
    const jittered = call(mock, 'GET', '/products');
    await vi.advanceTimersByTimeAsync(29);
    expect(await settled(jittered)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(jittered)).toBe(true);

    mock.setLatency(undefined);
    expect(await settled(call(mock, 'GET', '/products'))).toBe(true);
  });

  it('applies to injected failures and rate-limit answers too, and ends with the request', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const mock = createMockPartnerApi({ latencyMs: 50, rateLimit: { requestsPerSecond: 1 } });
    mock.failNext({ status: 503 });
    const failed = call(mock, 'GET', '/products');
    await vi.advanceTimersByTimeAsync(49);
    expect(await settled(failed)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await failed).status).toBe(503);

    const controller = new AbortController();
    const aborted = mock.fetch(`${mock.baseUrl}/products`, {
      headers: clientHeaders(mock),
      signal: controller.signal,
    });
    controller.abort(new Error('caller gave up'));
    await expect(aborted).rejects.toThrow('caller gave up');
  });
});
