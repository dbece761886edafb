/**
 * The bounds of the offer's numbers in cents and counts (spec §4.6, §8), at and around each end:
 * `offers.update` refuses a value before sending exactly where the testing kit, judging the same
 * value sent raw with its own Laravel rules (written from the spec, not from the SDK's schemas),
 * answers 422 naming the field; the values both take, the kit stores as sent.
 */

import fc from 'fast-check';
import { PartnerClient, RequestValidationError } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { assertWithinBudget } from '../helpers/property-budget';

const mock = createMockPartnerApi();
const { hash, offerCode } = mock.products.course;
const seller = new PartnerClient({
  baseUrl: mock.baseUrl,
  fetch: mock.fetch,
  clientToken: mock.credentials.clientToken,
  logLevel: 'off',
  maxRetries: 0,
}).forUser(mock.sellers.person.publicToken);

/** The kit's status for `field: value` sent as JSON past any SDK check. */
async function kitStatus(field: string, value: number): Promise<number> {
  const response = await mock.fetch(
    new Request(`${mock.baseUrl}/products/${hash}/offers/${offerCode}`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        'x-api-client-token': mock.credentials.clientToken,
        authorization: `Bearer ${mock.sellers.person.publicToken}`,
      },
      body: JSON.stringify({ [field]: value }),
    }),
  );
  await response.arrayBuffer();
  return response.status;
}

/** Whole numbers within 3 of each bound, fractions near them, and numbers far past them. */
function around(min: number, max: number): fc.Arbitrary<number> {
  const near = (bound: number) => fc.integer({ min: bound - 3, max: bound + 3 });
  return fc.oneof(
    near(min),
    near(max),
    fc.double({ min: min - 2, max: max + 2, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(2 ** 53, -(2 ** 53), 1e21, -1e21, min + 0.5, max - 0.01),
  );
}

const BOUNDED: Array<[string, number, number]> = [
  ['price', 0, 99_999_999],
  ['bank_slip_days_due', 1, 7],
  ['bank_slip_installments_limit', 1, 12],
  ['quantity_items', 1, 100],
];

describe('offers.update and the testing kit at the bounds of the spec', () => {
  it.each(BOUNDED)(
    '%s from %d to %d: the SDK refuses exactly what the kit answers 422',
    async (field, min, max) => {
      await assertWithinBudget(
        fc.asyncProperty(around(min, max), async (value) => {
          const sent = await seller.offers.update(hash, offerCode, { [field]: value }).then(
            () => true,
            (error: unknown) => {
              expect(error).toBeInstanceOf(RequestValidationError);
              expect((error as RequestValidationError).issues[0]?.path).toEqual([field]);
              return false;
            },
          );
          const kit = await kitStatus(field, value);
          expect(kit, `the kit's answer to ${field} ${value}`).toBe(sent ? 200 : 422);
          expect(sent).toBe(Number.isInteger(value) && value >= min && value <= max);
        }),
        { numRuns: 300, minRuns: 30 },
      );
    },
    60_000,
  );
});
