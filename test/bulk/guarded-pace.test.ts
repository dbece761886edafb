/**
 * The pace of a guarded refund job (`unlessRefunded`): each item reads the transaction's refunds,
 * then requests the refund, two requests against the same limit. The job holds the service's
 * rate in requests, not items: within 1.15 × what the service admits for two requests per item,
 * under 3 % 429s, nobody refunded twice. A read refused with 429 or 503 is the pace's to hear and
 * its item is read again after `Retry-After`: a read acts on nothing, so the item is never taken
 * to be in doubt for it.
 */

import { requestRefunds } from 'partner-sdk/bulk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collect, pacedRefunds, setup } from './support';

describe('a guarded refund job against a rate limit, on a virtual clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds 60 requests a second with a burst of 10: 150 items, two requests each, in about the ideal 5 s', async () => {
    const run = await pacedRefunds(150, 60, 10, { unlessRefunded: true });
    expect(run.summary).toMatchObject({ succeeded: 150, failed: 0 });
    // The ideal: the 300 requests at the service's rate.
    expect(run.seconds / 5).toBeLessThanOrEqual(1.15);
    expect(run.refusedShare).toBeLessThan(0.03);
    expect(run.twice).toBe(0);
  }, 60_000);

  it('finds and holds 20 requests a second with a burst of 1: 600 items, two requests each, within 1.15 × the ideal minute', async () => {
    const run = await pacedRefunds(600, 20, 1, { unlessRefunded: true });
    expect(run.summary).toMatchObject({ succeeded: 600, failed: 0 });
    expect(run.seconds / 60).toBeLessThanOrEqual(1.15);
    expect(run.refusedShare).toBeLessThan(0.03);
    expect(run.twice).toBe(0);
  }, 90_000);
});

describe("a guarded refund job's read, or its request, refused", () => {
  /** One guarded item whose first read (or request) is answered `status`: its outcome, and what was sent for it. */
  async function refusedRead(status: 429 | 503, method = 'GET') {
    const { mock, seller } = setup({ refundPolls: 0 });
    const hash = mock.addTransaction();
    mock.failNext({ status, retryAfter: 0, method, path: `/financial/refund/${hash}` });
    mock.clearRequests();
    const job = requestRefunds(seller, [hash], { unlessRefunded: true });
    const outcomes = await collect(job);
    const sent = (method: string) =>
      mock.requests.filter((r) => r.method === method && r.path === `/financial/refund/${hash}`)
        .length;
    return { outcomes, summary: await job, reads: sent('GET'), posts: sent('POST'), hash };
  }

  it('a 429 on the read is heard by the pace, and the item is read again and requested once', async () => {
    const { outcomes, summary, reads, posts, hash } = await refusedRead(429);
    expect(outcomes).toEqual([
      expect.objectContaining({ key: hash, status: 'succeeded', reconciled: false }),
    ]);
    expect(summary).toMatchObject({ succeeded: 1, throttled: 1 });
    // The refused read, the read again; no check for a refund made, as none was asked for.
    expect([reads, posts]).toEqual([2, 1]);
  });

  it('a 503 on the read leaves the item out of doubt: read again, with no check for a refund made', async () => {
    const { outcomes, summary, reads, posts, hash } = await refusedRead(503);
    expect(outcomes).toEqual([
      expect.objectContaining({ key: hash, status: 'succeeded', reconciled: false }),
    ]);
    expect(summary).toMatchObject({ succeeded: 1, throttled: 1 });
    expect([reads, posts]).toEqual([2, 1]);
  });

  it('a request refused with 429 after its read is sent again without reading again', async () => {
    const { outcomes, summary, reads, posts, hash } = await refusedRead(429, 'POST');
    expect(outcomes).toEqual([expect.objectContaining({ key: hash, status: 'succeeded' })]);
    expect(summary).toMatchObject({ succeeded: 1, throttled: 1 });
    // The read, the refused request, the request again.
    expect([reads, posts]).toEqual([1, 2]);
  });
});
