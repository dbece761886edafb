/**
 * A general job's `check` (`BulkOperation.check`): a read before the item is first sent. The
 * error it resolves with fails the item with it, nothing run for it; `undefined` lets it go. It
 * is read once per item: a send refused with 429 goes again without reading again.
 */

import { RateLimitError } from 'partner-sdk';
import { runBulk } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { collect } from './support';

/** A 429 as the SDK reports one, asking for no wait. */
const refused = () =>
  new RateLimitError(
    { method: 'POST', path: '/things' },
    429,
    undefined,
    new Headers({ 'retry-after': '0' }),
  );

describe('runBulk check', () => {
  it('fails the item it refuses with its error, runs nothing for it, and lets the others go', async () => {
    const checked: string[] = [];
    const ran: string[] = [];
    const job = runBulk(['a', 'b', 'c'], {
      key: (sku) => sku,
      check: async (sku) => {
        checked.push(sku);
        return sku === 'b' ? new Error('b is sold out') : undefined;
      },
      run: async (sku) => {
        ran.push(sku);
        return sku;
      },
    });
    const outcomes = await collect(job);
    expect(checked.sort()).toEqual(['a', 'b', 'c']);
    expect(ran.sort()).toEqual(['a', 'c']);
    const failed = outcomes.find((outcome) => outcome.key === 'b');
    expect(failed).toMatchObject({ status: 'failed', inDoubt: false, attempts: 0 });
    expect((failed as { error: Error }).error.message).toBe('b is sold out');
  });

  it('reads once per item: a send refused with 429 goes again without another read', async () => {
    let checks = 0;
    let sends = 0;
    const job = runBulk(['a'], {
      key: (sku) => sku,
      check: async () => {
        checks++;
        return undefined;
      },
      run: async (sku) => {
        if (++sends === 1) throw refused();
        return sku;
      },
    });
    expect(await job).toMatchObject({ succeeded: 1, throttled: 1 });
    expect([checks, sends]).toEqual([1, 2]);
  });
});
