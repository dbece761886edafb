import { requestRefunds, waitForRefunds } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { setup } from './support';

describe('waitForRefunds', () => {
  it('follows refunds to their end, starting 8 at a time even when concurrency is given as undefined', async () => {
    const { mock, seller } = setup({ refundPolls: 0 });
    const hashes = mock.transactions.refundable.slice(0, 3);
    await requestRefunds(seller, hashes, { concurrency: undefined, signal: undefined });
    const limits: number[] = [];
    const summary = await waitForRefunds(seller, hashes, {
      concurrency: undefined,
      onProgress: (progress) => limits.push(progress.concurrency),
    });
    expect(summary).toMatchObject({ succeeded: 3, failed: 0 });
    // Read as absent: the default of 8, not runBulk's 4.
    expect(limits[0]).toBe(8);
  });
});
