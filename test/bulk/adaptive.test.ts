import { PartnerClient } from 'partner-sdk';
import { requestRefunds, runBulk } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { Congestion } from '../../src/bulk/congestion';
import { setup } from './support';

describe('adaptive concurrency', () => {
  it('runs near a rate-limited service with few 429s, every item done once', async () => {
    const { mock, seller, refundsOf } = setup({ latencyMs: 2 });
    const hashes = Array.from({ length: 600 }, () => mock.addTransaction());
    mock.setRateLimit({ requestsPerSecond: 200 });
    mock.clearRequests();
    const limits: number[] = [];
    const summary = await requestRefunds(seller, hashes, {
      concurrency: 4,
      onProgress: (p) => limits.push(p.concurrency),
    });
    mock.setRateLimit(undefined);
    expect(summary.succeeded).toBe(600);
    expect(summary.throttled).toBe(mock.stats.rateLimited);
    // A naive loop at this concurrency would meet hundreds of 429s; the job meets a handful.
    expect(mock.stats.rateLimited / mock.stats.requests).toBeLessThan(0.03);
    for (const limit of limits) expect(limit).toBeGreaterThanOrEqual(1);
    for (const limit of limits) expect(limit).toBeLessThanOrEqual(16);
    for (const hash of hashes.slice(0, 50)) expect(await refundsOf(hash)).toHaveLength(1);
  }, 30_000);

  it('pauses every worker for Retry-After after a 429, then sends the throttled item again', async () => {
    const { mock } = setup();
    const sent: number[] = [];
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      ...mock.credentials,
      logLevel: 'off',
      fetch: (input, init) => {
        sent.push(performance.now());
        return mock.fetch(input, init);
      },
    });
    mock.failNext({ status: 429, retryAfter: 1, path: /^\/products\// });
    const hashes = mock.products.hashes.slice(0, 12);
    const job = runBulk(
      hashes,
      {
        key: (hash) => hash,
        run: (hash, options) => client.products.retrieve(hash, options),
        replaySafe: true,
      },
      { concurrency: 1, maxConcurrency: 1 },
    );
    const summary = await job;
    expect(summary).toMatchObject({ succeeded: 12, failed: 0, throttled: 1 });
    // One request before the pause, then nothing for the second the service asked for.
    const gap = sent[1]! - sent[0]!;
    expect(gap).toBeGreaterThanOrEqual(990);
    expect(sent).toHaveLength(13);
  });

  it('gives an item up as failed after too many 429s, without stopping the others', async () => {
    const { mock, seller } = setup();
    const stuck = mock.addTransaction();
    const fine = mock.addTransaction();
    mock.failNext({ status: 429, retryAfter: 0, times: 25, path: `/financial/refund/${stuck}` });
    const summary = await requestRefunds(seller, [stuck, fine]);
    expect(summary).toMatchObject({ succeeded: 1, failed: 1 });
  });
});

describe('Congestion', () => {
  it('halves the limit once per event, whatever the answers to requests sent before it', () => {
    const c = new Congestion(16, 1, 32);
    c.throttle(0, 1000, 10);
    expect(c.limit).toBe(8);
    c.throttle(5, 1000, 11); // sent before the decrease: same event
    expect(c.limit).toBe(8);
    c.throttle(2000, 1000, 2010);
    expect(c.limit).toBe(4);
    expect(c.throttled).toBe(3);
  });

  it('pauses for Retry-After, then grows one step per 100 ms of success, within bounds', () => {
    const c = new Congestion(2, 2, 4);
    c.throttle(0, 1500, 100);
    expect(c.limit).toBe(2);
    expect(c.reserve(200)).toBeCloseTo(1400);
    c.success(1700, 1700);
    expect(c.limit).toBe(3);
    c.success(1750, 1750);
    expect(c.limit).toBe(3);
    for (let t = 1800; t < 3000; t += 100) c.success(t, t);
    expect(c.limit).toBe(4);
  });

  it('caps the rate at 90 % of what the service admitted in the last second of sending', () => {
    const c = new Congestion(8, 1, 16);
    for (let t = 0; t < 1000; t += 2) c.success(t, t); // 500 a second
    c.throttle(1000, 1000, 1000);
    expect(c.rate).toBeGreaterThan(440);
    expect(c.rate).toBeLessThan(460);
    // After the pause, requests go at that rate (a burst of 20 ms' worth at most).
    let sent = 0;
    for (let t = 2000; t < 3000; t += 0.25) if (c.reserve(t) === 0) sent++;
    expect(sent).toBeGreaterThanOrEqual(440);
    expect(sent).toBeLessThanOrEqual(460 + 10);
    expect(c.reserve(3000)).toBe(0);
    expect(c.reserve(3000)).toBeGreaterThan(0);
  });

  it('estimates the rate from the last second only, after many seconds of fast successes', () => {
    const c = new Congestion(8, 1, 16);
    // 10 s at 20,000 a second, then 1 s at 5,000: only that last second counts.
    for (let t = 0; t < 10_000; t += 0.05) c.success(t, t);
    for (let t = 10_000; t < 11_000; t += 0.2) c.success(t, t);
    c.throttle(11_000, 1000, 11_000);
    expect(c.rate).toBeGreaterThan(4_400);
    expect(c.rate).toBeLessThan(4_600);
  });

  it('backs off 1 s, 2 s, 4 s… on 503s without Retry-After', () => {
    const c = new Congestion(4, 1, 4);
    c.throttle(0, undefined, 0);
    expect(c.pausedUntil).toBeGreaterThanOrEqual(800);
    expect(c.pausedUntil).toBeLessThanOrEqual(1200);
    c.throttle(1300, undefined, 1300);
    expect(c.pausedUntil - 1300).toBeGreaterThanOrEqual(1600);
  });
});
