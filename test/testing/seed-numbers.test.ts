/**
 * The kit's seed and scripting numbers as their JSDoc states them: `productCount` "how many
 * products the catalogue holds (at least the 4 featured ones)", `refundPolls`, `exportPolls` and
 * `polls` a count of polls, `addTransaction`'s amount in cents, `advanceClock`'s milliseconds. A
 * value no such number can be (a fraction, a negative, `NaN`, `Infinity`, a string) is refused
 * with a `RangeError` naming it, as `failNext` refuses a fault no answer could carry; `Infinity`
 * products used to build a catalogue for ever, and `advanceClock` threw a `TypeError` for some
 * of these and took a move past the year 9999, after which `mock.now()` threw.
 */

import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { sellerHeaders } from './helpers';

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

  it('refuses an outcome it cannot script, and a transaction it does not have', async () => {
    const mock = createMockPartnerApi();
    const hash = mock.transactions.refundable[0]!;
    const misspelt = 'complete' as 'completed';
    expect(() => mock.refundOutcome(hash, misspelt)).toThrow(
      new TypeError("refundOutcome: outcome must be 'completed' or 'failed', got complete"),
    );
    expect(() => mock.refundOutcome('trx_not_in_the_kit', 'failed')).toThrow(
      new RangeError('refundOutcome: no transaction trx_not_in_the_kit in the mock'),
    );
    const exported = await mock.fetch(`${mock.baseUrl}/financial/account-statement/export-report`, {
      method: 'POST',
      headers: sellerHeaders(mock, { 'content-type': 'application/json' }),
      body: JSON.stringify({ format: 'csv', filter: { betweenDates: '01/01/2026,31/01/2026' } }),
    });
    const { data } = (await exported.json()) as { data: { hash: string } };
    expect(() => mock.exportOutcome(data.hash, misspelt)).toThrow(
      new TypeError("exportOutcome: outcome must be 'completed' or 'failed', got complete"),
    );
    // A transaction added later is scripted as a seeded one is.
    expect(() => mock.refundOutcome(mock.addTransaction(4990), 'failed')).not.toThrow();
  });
});

describe('advanceClock and addTransaction', () => {
  it('advanceClock refuses a move that is not a whole number of milliseconds from 0, naming it, with a RangeError as every other number the kit takes', () => {
    const mock = createMockPartnerApi();
    for (const ms of [...NOT_A_COUNT, '60000', null]) {
      expect(() => mock.advanceClock(ms as number), String(ms)).toThrow(RangeError);
      expect(() => mock.advanceClock(ms as number)).toThrow(
        /^advanceClock: ms must be a whole number from 0 to \d+ \(.*\), got /,
      );
    }
    expect(() => mock.advanceClock(-1)).toThrow('got -1');
  });

  it("advanceClock refuses a move past the year 9999, which the kit's timestamps cannot write, and the clock stays where it was", async () => {
    const mock = createMockPartnerApi();
    const before = mock.now().getTime();
    const lastMs = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    expect(() => mock.advanceClock(Number.MAX_SAFE_INTEGER)).toThrow(RangeError);
    expect(() => mock.advanceClock(lastMs)).toThrow('the year 10000');
    expect(mock.now().getTime() - before).toBeLessThan(60_000);
    mock.advanceClock(365 * 86_400_000);
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientToken: mock.credentials.clientToken,
    });
    const seller = client.forUser(mock.sellers.person.publicToken);
    await expect(seller.anticipations.list()).resolves.toBeDefined();
  });

  it('addTransaction refuses an amount that is not a whole number of cents from 0, naming it', () => {
    const mock = createMockPartnerApi();
    for (const cents of [...NOT_A_COUNT, '9900']) {
      expect(() => mock.addTransaction(cents as number), String(cents)).toThrow(
        new RangeError(`addTransaction: amountCents must be a whole number from 0, got ${cents}`),
      );
    }
    expect(mock.addTransaction(0)).toMatch(/^trx_/);
  });
});
