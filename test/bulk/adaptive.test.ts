import { PartnerClient } from 'partner-sdk';
import { requestRefunds, runBulk } from 'partner-sdk/bulk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pacedRefunds, setup } from './support';

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

  /** A job retrieving 12 products one at a time, with the time and path of every request sent. */
  function productsJob() {
    const { mock } = setup();
    const sent: { at: number; path: string }[] = [];
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      ...mock.credentials,
      clientToken: mock.credentials.clientToken,
      logLevel: 'off',
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        sent.push({ at: performance.now(), path: url.pathname });
        return mock.fetch(input, init);
      },
    });
    const hashes = mock.products.hashes.slice(0, 12);
    const run = () =>
      runBulk(
        hashes,
        {
          key: (hash) => hash,
          run: (hash, options) => client.products.retrieve(hash, options),
          replaySafe: true,
        },
        { concurrency: 1, maxConcurrency: 1 },
      );
    return { mock, sent, run };
  }

  it('holds the refused item back for its Retry-After while the others go on at a pace', async () => {
    const { mock, sent, run } = productsJob();
    mock.failNext({ status: 429, retryAfter: 1, path: /^\/products\// });
    const summary = await run();
    expect(summary).toMatchObject({ succeeded: 12, failed: 0, throttled: 1 });
    expect(sent).toHaveLength(13);
    const refused = sent[0]!;
    const again = sent.findIndex((s, i) => i > 0 && s.path === refused.path);
    // Sent again no sooner than the service asked…
    expect(sent[again]!.at - refused.at).toBeGreaterThanOrEqual(990);
    // …while other items went meanwhile, one at a time (the pace starts low after a 429).
    expect(again).toBeGreaterThan(1);
    expect(sent[1]!.at - refused.at).toBeGreaterThan(0);
  });

  it('pauses every worker for Retry-After when refusals repeat with nothing admitted between', async () => {
    const { mock, sent, run } = productsJob();
    mock.failNext({ status: 429, retryAfter: 1, times: 2, path: /^\/products\// });
    const summary = await run();
    expect(summary).toMatchObject({ succeeded: 12, failed: 0, throttled: 2 });
    expect(sent).toHaveLength(14);
    // The second refusal says the service admits nothing now: nothing goes for the second asked.
    expect(sent[2]!.at - sent[1]!.at).toBeGreaterThanOrEqual(990);
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

  it('runs 300 refunds at 60/s with a burst of 10 in about the ideal 5 s, not 10 to 26 s', async () => {
    const run = await pacedRefunds(300, 60, 10);
    expect(run.summary.succeeded).toBe(300);
    // The 429s that find the limit (the burst, the end of the search) hold back only their own
    // item: the job is within 1.15 × the ideal 5 s.
    expect(run.seconds).toBeLessThanOrEqual(5.75);
    expect(run.refusedShare).toBeLessThan(0.03);
  }, 60_000);

  it('finds and holds 20/s with a burst of 1 over a minute of work: within 1.15 × ideal', async () => {
    const run = await pacedRefunds(1200, 20, 1);
    expect(run.summary.succeeded).toBe(1200);
    expect(run.seconds / 60).toBeLessThanOrEqual(1.15);
    expect(run.refusedShare).toBeLessThan(0.03);
  }, 60_000);

  it('counts a 404 the service answered as a request it admitted: a cohort with unknown hashes holds the rate too', async () => {
    // Every other one is a transaction the service does not know: its 404 took a token all the
    // same. Counted as nothing, the pace took the half it saw for the whole and crawled.
    const run = await pacedRefunds(600, 60, 10, {}, 2);
    expect(run.summary).toMatchObject({ succeeded: 300, failed: 300 });
    expect(run.seconds / 10).toBeLessThanOrEqual(1.15);
    expect(run.refusedShare).toBeLessThan(0.03);
    expect(run.twice).toBe(0);
  }, 60_000);
});
