/**
 * The kit's seed and scripting numbers as their JSDoc states them: `productCount` "how many
 * products the catalogue holds (at least the 4 featured ones)", `refundPolls`, `exportPolls` and
 * `polls` a count of polls. A value no count can be (a fraction, a negative, `NaN`, `Infinity`) is
 * refused with a `RangeError` naming it, as `failNext` refuses a fault no answer could carry;
 * `Infinity` products used to build a catalogue for ever.
 */

import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';

const NOT_A_COUNT = [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY];

describe('createMockPartnerApi seed numbers', () => {
  it.each(['productCount', 'refundPolls', 'exportPolls'] as const)(
    'refuses a %s that is not a whole number, naming it',
    (name) => {
      for (const value of NOT_A_COUNT) {
        const made = () => createMockPartnerApi({ [name]: value });
        expect(made, `${name} ${value}`).toThrow(RangeError);
        expect(made).toThrow(`createMockPartnerApi: ${name} must be a whole number from 0`);
        expect(made).toThrow(`got ${value}`);
      }
    },
  );

  it('refuses more products than 100 000 (twice what 999 pages of 50 reach)', () => {
    expect(() => createMockPartnerApi({ productCount: 100_001 })).toThrow(
      'productCount must be a whole number from 0 to 100000, got 100001',
    );
  });

  it.each([
    [0, 4],
    [4, 4],
    [51, 51],
  ])('holds %i products as %i (at least the 4 featured ones)', async (productCount, held) => {
    const mock = createMockPartnerApi({ productCount });
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientToken: mock.credentials.clientToken,
    });
    const first = await client.products.list({ per_page: 50 });
    expect(first.pagination.total).toBe(held);
  });
});

describe('refundOutcome and exportOutcome polls', () => {
  it('refuses polls that are not a whole number, naming the method', () => {
    const mock = createMockPartnerApi();
    const hash = mock.transactions.refundable[0]!;
    for (const polls of NOT_A_COUNT) {
      expect(() => mock.refundOutcome(hash, 'failed', { polls })).toThrow(
        new RangeError(`refundOutcome: polls must be a whole number from 0, got ${polls}`),
      );
      expect(() => mock.exportOutcome('exp_1', 'failed', { polls })).toThrow(
        new RangeError(`exportOutcome: polls must be a whole number from 0, got ${polls}`),
      );
    }
    expect(() => mock.refundOutcome(hash, 'failed', { polls: 0 })).not.toThrow();
  });
});
