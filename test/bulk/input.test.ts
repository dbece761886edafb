/**
 * Bulk jobs called wrongly from plain JavaScript: a string where the items go (iterable, by
 * character), options that are no object, request options no call can take and poll options no
 * wait can take are refused at once, nothing sent.
 */

import type { RequestValidationError } from 'partner-sdk';
import { requestRefunds, runBulk, updateOffers, waitForRefunds } from 'partner-sdk/bulk';
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

  it.each([
    [
      'an option no call has',
      { timout: 1_000 },
      /`timout` is not an option; did you mean `timeout`\?/,
    ],
    ['a time-out out of range', { timeout: -1 }, /`timeout` must be a positive/],
    ['headers as an array', { headers: [['x-a', 'b']] }, /`headers` must be an object/],
    ['no object', 'fast', /expected an object/],
  ])(
    'refuse requestOptions holding %s as the job is made, not item by item',
    async (_, requestOptions, words) => {
      const { seller, sent } = await start();
      const outcome = await outcomeOf(() =>
        requestRefunds(seller, ['tx_1', 'tx_2'], { requestOptions: requestOptions as never }),
      );
      expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
      const issues =
        outcome.kind === 'refused' ? (outcome.error as RequestValidationError).issues : [];
      expect(issues[0]?.path).toEqual(['requestOptions']);
      expect(issues[0]?.message).toMatch(words);
      expect(sent()).toEqual([]);
    },
  );

  it.each([
    [
      'an option no wait has',
      { intervall: 5 },
      /`intervall` is not an option; did you mean `interval`\?/,
    ],
    ['an interval out of range', { interval: -1 }, /positive number of milliseconds/],
    ['no object', 'slow', /expected an object/],
  ])(
    'waitForRefunds refuses pollOptions holding %s as the job is made, not item by item',
    async (_, pollOptions, words) => {
      const { seller, sent } = await start();
      const outcome = await outcomeOf(() =>
        waitForRefunds(seller, ['tx_1', 'tx_2'], { pollOptions: pollOptions as never }),
      );
      expect(outcome.kind === 'refused' && outcome.error.name).toBe('RequestValidationError');
      expect(outcome.kind === 'refused' && outcome.error.message).toMatch(words);
      expect(sent()).toEqual([]);
    },
  );
});
