import { describe, expect, it } from 'vitest';
import document from '../../docs/openapi.json' with { type: 'json' };
import { accepts, ajv, components, type Json } from '../helpers/openapi-document';

/**
 * docs/openapi.json read as a partner's generator reads it: each request field's schema must hold
 * the limits, formats and value sets the spec gives (§2, §4, §8), so that a client generated in
 * another language refuses what the service refuses. The values below come from the spec's tables,
 * checked with Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1).
 */

/** [component, field, accepted values, refused values], each from the spec's words. */
const RULES: [string, string, unknown[], unknown[]][] = [
  // §4.1 and §8: the profile update.
  ['UserUpdateParams', 'name', ['Ana', 'x'.repeat(191)], ['An', 'x'.repeat(192), 3]],
  ['UserUpdateParams', 'nickname', ['x'.repeat(191)], ['x'.repeat(192)]],
  ['UserUpdateParams', 'cpf', ['529.982.247-25'], ['52998224725']],
  ['UserUpdateParams', 'cnpj', ['12.345.678/0001-90'], ['12345678000190']],
  ['UserUpdateParams', 'company_type', ['mei', 'simple', 'presumed', 'real'], ['ltda']],
  ['UserUpdateParams', 'social_name', ['x'.repeat(191)], ['x'.repeat(192)]],
  ['UserUpdateParams', 'recovery_email', ['ana@example.com'], ['not an e-mail']],
  ['UserUpdateParams', 'website', ['https://ana.example'], ['not a url']],
  ['UserUpdateParams', 'birth', ['1990-04-01'], [19900401]],
  ['UserUpdateParams', 'is_emancipated', [true, false], ['yes']],
  ['CompanyPartnerParams', 'name', ['x'.repeat(191)], ['x'.repeat(192)]],
  // §2.2: the address.
  ['AddressParams', 'zip_code', ['01310-100'], ['01310100', '01310-1000']],
  ['AddressParams', 'state', ['SP'], ['SPX', 'S']],
  ['AddressParams', 'city', ['x'.repeat(191)], ['x'.repeat(192)]],
  ['AddressParams', 'street', ['x'.repeat(191)], ['x'.repeat(192)]],
  ['AddressParams', 'street_number', ['s/n'], ['x'.repeat(192)]],
  ['AddressParams', 'neighborhood', ['x'.repeat(191)], ['x'.repeat(192)]],
  ['AddressParams', 'country', ['x'.repeat(191)], ['x'.repeat(192)]],
  ['AddressParams', 'complement', ['x'.repeat(191)], ['x'.repeat(192)]],
  // §2.3: a phone.
  ['PhoneParams', 'id', [1, 999_999_999], [0, 1_000_000_000, 1.5]],
  ['PhoneParams', 'ddi', ['55', '12345'], ['123456']],
  ['PhoneParams', 'ddd', ['11'], ['119']],
  ['PhoneParams', 'type', ['whatsapp', 'x'.repeat(191)], ['x'.repeat(192)]],
  ['PhoneParams', 'number', ['12345678', '912345678'], ['1234567', '9123456789', '9123-4567']],
  // §2.4 and §4.5: the bank account.
  ['BankAccountUpdateParams', 'receiver_type', ['pix', 'bank'], ['checking']],
  ['BankAccountUpdateParams', 'pix_key', [null, 'x'.repeat(191)], ['x'.repeat(192)]],
  ['BankAccountUpdateParams', 'holder_name', ['x'.repeat(191)], ['x'.repeat(192)]],
  ['BankAccountUpdateParams', 'branch_number', ['x'.repeat(20)], ['x'.repeat(21)]],
  ['BankAccountUpdateParams', 'branch_check_digit', ['123'], ['1234']],
  ['BankAccountUpdateParams', 'account_number', ['x'.repeat(20)], ['x'.repeat(21)]],
  ['BankAccountUpdateParams', 'account_check_digit', ['123'], ['1234']],
  // §4.6 and §8: the offer.
  ['OfferUpdateParams', 'name', ['x'.repeat(191)], ['x'.repeat(192)]],
  ['OfferUpdateParams', 'price', [0, 99_999_999], [-1, 100_000_000, 49.9]],
  ['OfferUpdateParams', 'fake_initial_price', [5990], [59.9]],
  ['OfferUpdateParams', 'type_of_charge', ['one-time', 'recurring'], ['weekly']],
  ['OfferUpdateParams', 'quantity_items', [1, 100], [0, 101, 1.5]],
  [
    'OfferUpdateParams',
    'pix_recurring_frequency',
    ['weekly', 'biweekly', 'monthly', 'quarterly', 'biannual', 'annual'],
    ['daily'],
  ],
  ['OfferUpdateParams', 'pix_recurring_authorization_type', ['monthly_auth_monthly_retry'], ['x']],
  ['OfferUpdateParams', 'bank_slip_days_due', [1, 7], [0, 8]],
  ['OfferUpdateParams', 'bank_slip_installments_limit', [1, 12], [0, 13]],
  ['OfferUpdateParams', 'credit_card_installments_options', [[1, 12, 36]], [[0], [37], [1.5]]],
  ['OfferUpdateParams', 'affiliates_percentage', [1, 12.5, 80], [0.5, 80.5]],
  ['OfferUpdateParams', 'affiliates_subscription_percentage', [1, 80], [0, 81]],
  ['OfferSubscriptionParams', 'trial_days', [7], [7.5]],
  ['OfferSubscriptionParams', 'max_charges', [12], [1.5]],
  ['OfferFreightParams', 'preparation_day', [2], [2.5]],
  ['OfferFreightParams', 'fixed_price', [12.5], ['12.5']],
  // §4.2 and §8: the refund request.
  ['RefundRequestParams', 'reason', ['x'.repeat(1000)], ['x'.repeat(1001)]],
  ['RefundRequestParams', 'fraud_confirmed', [true], ['true']],
];

describe('docs/openapi.json request fields', () => {
  it.each(RULES)('%s.%s holds the limits of the spec', (component, field, good, bad) => {
    expect(good.filter((value) => !accepts(component, field, value))).toEqual([]);
    expect(bad.filter((value) => accepts(component, field, value))).toEqual([]);
  });

  it("gives the service's documented defaults of the fields that have one", () => {
    const field = (component: string, name: string) =>
      (components[component]?.properties as Record<string, Json> | undefined)?.[name];
    expect(field('PhoneParams', 'ddi')?.default).toBe('55'); // §2.3
    expect(field('AddressParams', 'is_default')?.default).toBe(false); // §2.2
  });

  it('counts lengths in characters, as the service does', () => {
    expect(accepts('UserUpdateParams', 'name', '😀'.repeat(191))).toBe(true);
    expect(accepts('UserUpdateParams', 'name', '😀'.repeat(192))).toBe(false);
  });

  it('gives the query parameters of the lists their bounds and documented defaults', () => {
    type Parameter = { name: string; in: string; schema: Json };
    const paths = document.paths as Record<string, { get?: { parameters?: Parameter[] } }>;
    const query = (path: string) =>
      Object.fromEntries(
        (paths[path]?.get?.parameters ?? [])
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => [parameter.name, parameter.schema]),
      );
    const passes = (schema: Json | undefined, value: unknown) => ajv.validate(schema ?? {}, value);

    // §4.10 and §8: page 1 to 999, per_page 1 to 50; their defaults are not shown.
    const products = query('/products');
    expect([0, 1000, 1.5].filter((v) => passes(products.page, v))).toEqual([]);
    expect([0, 51].filter((v) => passes(products.per_page, v))).toEqual([]);
    expect([1, 999].every((v) => passes(products.page, v))).toBe(true);
    expect(products.per_page?.default).toBeUndefined();
    // §4.8: page at least 1 (default 1), per_page 1 to 100 (default 25).
    const anticipations = query('/financial/anticipation');
    expect([0, 1.5].filter((v) => passes(anticipations.page, v))).toEqual([]);
    expect([0, 101].filter((v) => passes(anticipations.per_page, v))).toEqual([]);
    expect([1, 100].every((v) => passes(anticipations.per_page, v))).toBe(true);
    expect([anticipations.page?.default, anticipations.per_page?.default]).toEqual([1, 25]);
  });
});
