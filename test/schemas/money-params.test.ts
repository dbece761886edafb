/**
 * Money and bounded numbers a partner sends with `offers.update` (spec §4.6, §2.7, §2.8, §8):
 * prices in integer cents (`price` 0 to 99999999), installments, days, stock, commissions, freight
 * prices. A value outside the documented rule (a price in reais, a negative, one past the bound,
 * `NaN`, `Infinity`, a number JavaScript does not hold exactly, a string of digits) is refused
 * before anything is sent, with a `RequestValidationError` naming the field and the rule and
 * quoting no secret; a value the spec leaves open (a negative strike-through price, any freight
 * price: the spec gives neither a bound nor a unit) is the service's to judge, and is sent. The
 * testing kit, judging the same values sent raw with its own Laravel rules, answers 422 in
 * Laravel's form for each value the spec's rules refuse.
 */

import { PartnerClient, RequestValidationError } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';

const mock = createMockPartnerApi();
const { hash, offerCode } = mock.products.course;
const recurring = mock.products.recurring;
const client = new PartnerClient({
  baseUrl: mock.baseUrl,
  fetch: mock.fetch,
  clientToken: mock.credentials.clientToken,
  logLevel: 'off',
  maxRetries: 0,
});
const sellerToken = mock.sellers.person.publicToken;
const seller = client.forUser(sellerToken);

const HOSTILE = [
  19.99,
  -1,
  100_000_000,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  1e21,
  '1990',
  2 ** 53,
];

/** A documented rule: whole cents or a whole number, or any finite number, within `range`. */
interface Rule {
  kind: 'cents' | 'integer' | 'number';
  range?: [number, number];
  /** Where the field sits in the body (one key, or a key then a nested key or list index). */
  path: [string] | [string, string | number];
  /** Whether the offer must be recurring for the field to be taken. */
  recurring?: boolean;
}

const RULES: Rule[] = [
  { kind: 'cents', range: [0, 99_999_999], path: ['price'] },
  { kind: 'cents', path: ['fake_initial_price'] },
  { kind: 'cents', path: ['subscription', 'first_charge_price'], recurring: true },
  { kind: 'integer', range: [1, 36], path: ['credit_card_installments_options', 0] },
  { kind: 'integer', range: [1, 7], path: ['bank_slip_days_due'] },
  { kind: 'integer', range: [1, 12], path: ['bank_slip_installments_limit'] },
  { kind: 'integer', range: [1, 100], path: ['quantity_items'] },
  { kind: 'number', range: [1, 80], path: ['affiliates_percentage'] },
  { kind: 'number', range: [1, 80], path: ['affiliates_subscription_percentage'], recurring: true },
  { kind: 'number', path: ['freight', 'fixed_price'] },
  { kind: 'number', path: ['freight', 'pac_fallback_price'] },
  { kind: 'number', path: ['freight', 'sedex_fallback_price'] },
];

/** The body holding `value` at the rule's path. */
function bodyOf({ path: [key, inner] }: Rule, value: unknown): Record<string, unknown> {
  if (inner === undefined) return { [key]: value };
  return { [key]: typeof inner === 'number' ? [value] : { [inner]: value } };
}

/** What the spec's rule says of `value`: the words of the SDK's refusal, or `undefined` to send it. */
function refusal({ kind, range }: Rule, value: unknown): RegExp | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    // Not a number at all: the message says which kind of value came instead.
    const expected =
      kind === 'cents'
        ? 'Expected a whole number of cents \\(19\\.90 is 1990\\)'
        : kind === 'integer'
          ? 'Expected an integer'
          : 'Expected a number';
    const received = typeof value === 'string' ? 'a string' : String(value);
    return new RegExp(`${expected}, received ${received}`);
  }
  const outside = range !== undefined && (value < range[0] || value > range[1]);
  if (kind !== 'number' && !Number.isSafeInteger(value)) {
    return Number.isInteger(value)
      ? /Must be a whole number from -9007199254740991 to 9007199254740991, where a number is exact/
      : kind === 'cents'
        ? /Expected a whole number of cents \(19\.90 is 1990\)/
        : /Expected an integer/;
  }
  return outside ? new RegExp(`Must be between ${range![0]} and ${range![1]}`) : undefined;
}

const puts = () => mock.requests.filter((request) => request.method === 'PUT').length;

describe.each(RULES)('offers.update, $path ($kind)', (rule) => {
  const target = rule.recurring ? recurring : { hash, offerCode };
  it.each(HOSTILE)(
    'given %s, refuses what the rule refuses before sending, sends the rest',
    async (value) => {
      const before = puts();
      const outcome = await seller.offers
        .update(target.hash, target.offerCode, bodyOf(rule, value) as never)
        .then(
          () => 'sent',
          (error: unknown) => error,
        );
      const expected = refusal(rule, value);
      if (expected === undefined) {
        expect(puts()).toBe(before + 1);
        return;
      }
      expect(outcome).toBeInstanceOf(RequestValidationError);
      const error = outcome as RequestValidationError;
      expect(error.issues[0]?.path).toEqual(rule.path);
      expect(error.message).toMatch(new RegExp(`${rule.path.join('\\.')}: ${expected.source}`));
      expect(error.message).not.toContain(sellerToken);
      expect(error.message).not.toContain(mock.credentials.clientToken);
      expect(puts()).toBe(before);
    },
  );
});

describe('the testing kit, given the same values raw', () => {
  /** The kit's answer to `body` sent as JSON text past any SDK check. */
  async function raw(target: { hash: string; offerCode: string }, body: string) {
    const response = await mock.fetch(
      new Request(`${mock.baseUrl}/products/${target.hash}/offers/${target.offerCode}`, {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          'x-api-client-token': mock.credentials.clientToken,
          authorization: `Bearer ${sellerToken}`,
        },
        body,
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  // NaN and Infinity have no JSON form; the rest as a partner's own code would write them.
  const values = ['19.99', '-1', '100000000', '1e21', '9007199254740992', '-0', '1990.0'];
  const judged = (text: string) => refusal(RULES[0]!, JSON.parse(text)) !== undefined;

  it.each(values)(
    'answers price %s as the spec rules: a 422 in Laravel form, or 200',
    async (text) => {
      const answer = await raw({ hash, offerCode }, `{"price":${text}}`);
      if (!judged(text)) {
        expect(answer.status).toBe(200);
        expect(answer.body.price).toBe(Number(text) || 0);
        return;
      }
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({
        message: expect.stringMatching(/^The price must /),
        errors: { price: [expect.stringMatching(/^The price must /)] },
      });
    },
  );

  it('reads a string of digits as Laravel does (an integer), where the SDK asks for a number', async () => {
    expect((await raw({ hash, offerCode }, '{"price":"1990"}')).body.price).toBe(1990);
    expect((await raw({ hash, offerCode }, '{"price":"19.90"}')).status).toBe(422);
  });
});
