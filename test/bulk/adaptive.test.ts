import { PartnerClient } from 'partner-sdk';
import { requestRefunds, runBulk } from 'partner-sdk/bulk';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
      clientToken: mock.credentials.clientToken,
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

describe('the pace, through requestRefunds on a virtual clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Refunds `count` transactions against the kit limited to `rate` and `burst`, on fake time. */
  async function refundAll(count: number, rate: number, burst: number) {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
    });
    const { mock, seller } = setup({ latencyMs: 3 });
    const hashes = Array.from({ length: count }, () => mock.addTransaction());
    mock.setRateLimit({ requestsPerSecond: rate, burst });
    mock.clearRequests();
    const started = performance.now();
    let summary: Awaited<ReturnType<typeof requestRefunds>> | undefined;
    const job = requestRefunds(seller, hashes, { concurrency: 4 }).then((s) => {
      summary = s;
    });
    // Virtual time moves in small steps; every timer within one fires at its own time.
    while (!summary) await vi.advanceTimersByTimeAsync(10);
    await job;
    const seconds = (performance.now() - started) / 1000;
    return { summary, seconds, refusedShare: mock.stats.rateLimited / mock.stats.requests };
  }

  it('runs 300 refunds at 60/s with a burst of 10 in about the ideal 5 s, not 10 to 26 s', async () => {
    const run = await refundAll(300, 60, 10);
    expect(run.summary.succeeded).toBe(300);
    // Two 429s are unavoidable (the burst, then the end of the search), a second each.
    expect(run.seconds).toBeLessThan(8);
    expect(run.refusedShare).toBeLessThan(0.03);
  }, 60_000);

  it('finds and holds 20/s with a burst of 1 over a minute of work: within 1.15 × ideal', async () => {
    const run = await refundAll(1200, 20, 1);
    expect(run.summary.succeeded).toBe(1200);
    expect(run.seconds / 60).toBeLessThanOrEqual(1.15);
    expect(run.refusedShare).toBeLessThan(0.03);
  }, 60_000);
});
