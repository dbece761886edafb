/**
 * A general job's `validate` (`BulkOperation.validate`): what it throws, a plain `Error` as well
 * as a `RequestValidationError`, fails that item with it and nothing is run for the item; the
 * others go on. A dry run calls it too, and runs nothing.
 */

import { runBulk } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { collect } from './support';

interface PriceChange {
  sku: string;
  price?: number;
}

const items: PriceChange[] = [{ sku: 'a', price: 10 }, { sku: 'b' }, { sku: 'c', price: 30 }];

function operation(ran: string[]) {
  return {
    key: (item: PriceChange) => item.sku,
    validate: (item: PriceChange) => {
      if (item.price === undefined) throw new Error('no price to set');
    },
    run: async (item: PriceChange) => {
      ran.push(item.sku);
      return item.price;
    },
  };
}

describe('runBulk validate', () => {
  it('fails the item it throws for, with its error, and runs nothing for it', async () => {
    const ran: string[] = [];
    const job = runBulk(items, operation(ran), { concurrency: 1 });
    const outcomes = await collect(job);

    expect(ran).toEqual(['a', 'c']);
    const failed = outcomes.find((outcome) => outcome.key === 'b');
    expect(failed).toMatchObject({ status: 'failed', inDoubt: false });
    expect((failed as { error: Error }).error.message).toBe('no price to set');
    expect(await job).toMatchObject({ succeeded: 2, failed: 1 });
  });

  it('is called by a dry run, which runs nothing', async () => {
    const ran: string[] = [];
    const outcomes = await collect(runBulk(items, operation(ran), { dryRun: true }));

    expect(ran).toEqual([]);
    expect(Object.fromEntries(outcomes.map((outcome) => [outcome.key, outcome.status]))).toEqual({
      a: 'valid',
      b: 'failed',
      c: 'valid',
    });
  });
});
