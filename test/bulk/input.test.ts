/**
 * Bulk jobs called wrongly from plain JavaScript: a string where the items go (iterable, by
 * character) and options that are no object are refused at once, nothing sent.
 */

import { requestRefunds, runBulk, updateOffers } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { hostileService, outcomeOf } from '../helpers/hostile-inputs';

const start = hostileService();

describe('bulk jobs from plain JavaScript', () => {
  it('refuse one hash given as the items, instead of an item per character', async () => {
    const { seller, sent } = await start();
    const outcome = await outcomeOf(() => requestRefunds(seller, 'tx_1' as never));
    expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
    expect(outcome.kind === 'refused' && outcome.error.message).toContain('not a string');
    const offers = await outcomeOf(() => updateOffers(seller, 'prd_1' as never));
    expect(offers.kind).toBe('refused');
    expect(sent()).toEqual([]);
  });

  it.each([
    ['null', null],
    ['a number', 5],
  ])('refuse options that are %s, nothing sent', async (_, options) => {
    const { seller, sent } = await start();
    const run = () =>
      runBulk(
        ['prd_1'],
        { key: (hash) => hash, run: (hash) => seller.products.retrieve(hash) },
        options as never,
      );
    const outcome = await outcomeOf(run);
    expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
    expect(sent()).toEqual([]);
  });
});
