import { HttpResponse } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type Offer,
  RequestValidationError,
  ResponseValidationError,
  type UpdateOfferParams,
} from '../../src/index';
import { wireOffer } from '../helpers/kit-fixtures';
import {
  CLIENT_TOKEN,
  makeClient,
  onlyRequest,
  PUBLIC_TOKEN,
  rejectionOf,
  reply,
  replySequence,
  replyToAnything,
  requests,
  useMockApi,
} from '../helpers/msw-api';

useMockApi();

const OFFER_PATH = '/products/:product/offers/:offer';
const answerOffer = () => reply('put', OFFER_PATH, wireOffer());

/** Sends `params`, expecting them to pass, and returns the JSON body that arrived. */
async function sent(params: UpdateOfferParams): Promise<unknown> {
  answerOffer();
  await makeClient().offers.update('prd_k2j4', 'off_5521', params);
  return onlyRequest().json();
}

/** Sends `params`, expecting a RequestValidationError before anything leaves; returns the issue paths. */
async function refused(params: Record<string, unknown>): Promise<string[]> {
  const error = await rejectionOf(
    makeClient().offers.update('prd_k2j4', 'off_5521', params as UpdateOfferParams),
  );
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(requests()).toHaveLength(0);
  return (error as RequestValidationError).issues.map((issue) => issue.path.join('.'));
}

describe('offers.update', () => {
  it('sends PUT /products/{hash}/offers/{code} with the JSON body and returns the typed offer', async () => {
    answerOffer();
    const params: UpdateOfferParams = {
      name: 'Plano semanal',
      price: 19_900,
      fake_initial_price: 29_900,
      type_of_charge: 'recurring',
      allow_pix: true,
      allow_bank_slip: false,
      allow_credit_card: true,
      credit_card_installments_options: [1, 3, 6, 12],
      allow_pix_recurring: true,
      pix_recurring_frequency: 'weekly',
      pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
      allow_affiliates: true,
      custom_commission: true,
      affiliates_percentage: 30,
      affiliates_subscription_percentage: 20.5,
      commission_only_first_installment: false,
      transfer_fixed_fee_to_buyer: true,
      allow_smart_installment: true,
      producer_pays_interest: false,
      subscription: { trial_days: 7, first_charge_price: 990, max_charges: 12 },
      freight: {
        type: 'shipping_company',
        fixed_price: 15.9,
        free_states: ['SP'],
        is_pac: true,
        weight: 0.5,
      },
    };
    const offer = await makeClient()
      .forUser(PUBLIC_TOKEN)
      .offers.update('prd_k2j4', 'off_5521', params);

    const request = onlyRequest();
    expect(request.method).toBe('PUT');
    expect(request.path).toBe('/products/prd_k2j4/offers/off_5521');
    expect(request.query).toEqual({});
    expect(request.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(request.headers.get('authorization')).toBe(`Bearer ${PUBLIC_TOKEN}`);
    expect(request.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await request.json()).toEqual(params);
    expect(offer).toEqual(wireOffer());
    expect(offer.subscription?.interval).toBe('weekly');
    expectTypeOf(offer).toEqualTypeOf<Offer>();
  });

  it('is replayed after a 500 (PUT is idempotent)', async () => {
    replySequence(
      'put',
      OFFER_PATH,
      HttpResponse.json({}, { status: 500 }),
      HttpResponse.json(wireOffer()),
    );
    await makeClient({ maxRetries: 1 }).offers.update('prd_k2j4', 'off_5521', { price: 100 });
    expect(requests()).toHaveLength(2);
  });

  it('reads unknown enum values, null fields and extra keys', async () => {
    const odd = {
      ...wireOffer(),
      type_of_charge: 'installments',
      subscription: { ...wireOffer().subscription, interval: 'fortnightly', trial_days: null },
      freight: null,
      fake_initial_price: null,
      checkout_url: 'https://pay.partner.test/off_5521',
    };
    reply('put', OFFER_PATH, odd);
    expect(await makeClient().offers.update('prd_k2j4', 'off_5521', {})).toEqual(odd);
  });

  it('throws ResponseValidationError naming a wrong-typed field', async () => {
    const body = { ...wireOffer(), price: '199.00' };
    reply('put', OFFER_PATH, body);
    const error = (await rejectionOf(
      makeClient().offers.update('prd_k2j4', 'off_5521', {}),
    )) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i) => i.path)).toEqual([['price']]);
    expect(error.body).toEqual(body);
  });

  it('gives status and headers through .withResponse()', async () => {
    answerOffer();
    const { data, response } = await makeClient()
      .offers.update('prd_k2j4', 'off_5521', {})
      .withResponse();
    expect(response.status).toBe(200);
    expect(data.code).toBe(wireOffer().code);
  });

  it('sends numbers as JavaScript writes them, the shortest text that reads back the same', async () => {
    answerOffer();
    await makeClient().offers.update('prd_1', 'off_1', {
      price: -0,
      affiliates_subscription_percentage: 12.345,
      freight: { fixed_price: 0.1 + 0.2, weight: 1e21, height: 5e-7 },
    });
    // PHP's json_decode reads each back as the same double; no rounding to the currency's cents is
    // done for a number the spec does not say is cents.
    expect(await onlyRequest().text()).toBe(
      '{"price":0,"affiliates_subscription_percentage":12.345,' +
        '"freight":{"fixed_price":0.30000000000000004,"weight":1e+21,"height":5e-7}}',
    );
  });

  it('percent-encodes both path parameters', async () => {
    replyToAnything(wireOffer());
    await makeClient().offers.update('prd/1', 'off 2?', {});
    expect(onlyRequest().path).toBe('/products/prd%2F1/offers/off%202%3F');
  });

  it.each([
    ['productHash', '', 'off_1'],
    ['productHash', '.', 'off_1'],
    ['productHash', '..', 'off_1'],
    ['offerCode', 'prd_1', ''],
    ['offerCode', 'prd_1', '.'],
    ['offerCode', 'prd_1', '..'],
  ])('refuses %s %j / %j before sending', async (name, product, offer) => {
    const error = await rejectionOf(makeClient().offers.update(product, offer, {}));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual([name]);
    expect(requests()).toHaveLength(0);
  });
});

describe('offer limits (spec §4.6, §8)', () => {
  it.each<[string, Record<string, unknown>]>([
    ['name of 191 characters', { name: 'n'.repeat(191) }],
    ['price 0', { price: 0 }],
    ['price 99999999', { price: 99_999_999 }],
    ['quantity_items 1', { quantity_items: 1 }],
    ['quantity_items 100', { quantity_items: 100 }],
    ['bank_slip_days_due 1', { bank_slip_days_due: 1 }],
    ['bank_slip_days_due 7', { bank_slip_days_due: 7 }],
    ['bank_slip_installments_limit 1', { bank_slip_installments_limit: 1 }],
    ['bank_slip_installments_limit 12', { bank_slip_installments_limit: 12 }],
    ['installment options 1 and 36', { credit_card_installments_options: [1, 36] }],
    ['affiliates_percentage 1', { affiliates_percentage: 1 }],
    ['affiliates_percentage 80', { affiliates_percentage: 80 }],
    ['affiliates_subscription_percentage 1', { affiliates_subscription_percentage: 1 }],
    ['affiliates_subscription_percentage 80', { affiliates_subscription_percentage: 80 }],
    ['type_of_charge one-time', { type_of_charge: 'one-time' }],
    ['type_of_charge recurring', { type_of_charge: 'recurring' }],
  ])('sends %s', async (_what, params) => {
    expect(await sent(params as UpdateOfferParams)).toEqual(params);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['name of 192 characters', { name: 'n'.repeat(192) }, 'name'],
    ['price -1', { price: -1 }, 'price'],
    ['price 100000000', { price: 100_000_000 }, 'price'],
    ['a fractional price', { price: 19.9 }, 'price'],
    ['quantity_items 0', { quantity_items: 0 }, 'quantity_items'],
    ['quantity_items 101', { quantity_items: 101 }, 'quantity_items'],
    ['bank_slip_days_due 0', { bank_slip_days_due: 0 }, 'bank_slip_days_due'],
    ['bank_slip_days_due 8', { bank_slip_days_due: 8 }, 'bank_slip_days_due'],
    [
      'bank_slip_installments_limit 0',
      { bank_slip_installments_limit: 0 },
      'bank_slip_installments_limit',
    ],
    [
      'bank_slip_installments_limit 13',
      { bank_slip_installments_limit: 13 },
      'bank_slip_installments_limit',
    ],
    [
      'installment option 0',
      { credit_card_installments_options: [0] },
      'credit_card_installments_options.0',
    ],
    [
      'installment option 37',
      { credit_card_installments_options: [1, 37] },
      'credit_card_installments_options.1',
    ],
    ['affiliates_percentage 0.99', { affiliates_percentage: 0.99 }, 'affiliates_percentage'],
    ['affiliates_percentage 80.01', { affiliates_percentage: 80.01 }, 'affiliates_percentage'],
    [
      'affiliates_subscription_percentage 0.99',
      { affiliates_subscription_percentage: 0.99 },
      'affiliates_subscription_percentage',
    ],
    [
      'affiliates_subscription_percentage 80.01',
      { affiliates_subscription_percentage: 80.01 },
      'affiliates_subscription_percentage',
    ],
    ['type_of_charge once', { type_of_charge: 'once' }, 'type_of_charge'],
    [
      'pix_recurring_frequency daily',
      { pix_recurring_frequency: 'daily' },
      'pix_recurring_frequency',
    ],
    [
      'another authorization type',
      { pix_recurring_authorization_type: 'yearly' },
      'pix_recurring_authorization_type',
    ],
  ])('refuses %s before sending', async (_what, params, field) => {
    expect(await refused(params)).toEqual([field]);
  });

  it.each(['weekly', 'biweekly', 'monthly', 'quarterly', 'biannual', 'annual'])(
    'sends automatic PIX with frequency %s on a recurring offer',
    async (frequency) => {
      const params: UpdateOfferParams = {
        type_of_charge: 'recurring',
        allow_pix_recurring: true,
        pix_recurring_frequency: frequency as UpdateOfferParams['pix_recurring_frequency'],
        pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
      };
      expect(await sent(params)).toEqual(params);
    },
  );
});

describe('offer cross-field rules (DESIGN §5)', () => {
  it('requires the frequency and authorization type when allow_pix_recurring is true', async () => {
    expect(await refused({ type_of_charge: 'recurring', allow_pix_recurring: true })).toEqual([
      'pix_recurring_frequency',
      'pix_recurring_authorization_type',
    ]);
  });

  it('refuses automatic PIX on a one-time offer', async () => {
    expect(
      await refused({
        type_of_charge: 'one-time',
        allow_pix_recurring: true,
        pix_recurring_frequency: 'monthly',
        pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
      }),
    ).toEqual([
      'allow_pix_recurring',
      'pix_recurring_frequency',
      'pix_recurring_authorization_type',
    ]);
  });

  it.each<[string, unknown]>([
    ['commission_only_first_installment', true],
    ['affiliates_subscription_percentage', 10],
    ['subscription', { trial_days: 7 }],
  ])('refuses the recurring-only %s on a one-time offer', async (field, value) => {
    expect(await refused({ type_of_charge: 'one-time', [field]: value })).toEqual([field]);
  });

  it('refuses bank slip installments on a recurring offer', async () => {
    expect(
      await refused({ type_of_charge: 'recurring', allow_bank_slip_installments: true }),
    ).toEqual(['allow_bank_slip_installments']);
  });

  it.each<[string, UpdateOfferParams]>([
    [
      'recurring-only flags switched off on a one-time offer',
      {
        type_of_charge: 'one-time',
        allow_pix_recurring: false,
        commission_only_first_installment: false,
        allow_bank_slip_installments: true,
      },
    ],
    [
      'bank slip installments switched off on a recurring offer',
      {
        type_of_charge: 'recurring',
        allow_bank_slip_installments: false,
        commission_only_first_installment: true,
      },
    ],
    // Without type_of_charge the stored type decides: left to the service.
    [
      'recurring-only fields without type_of_charge',
      {
        subscription: { max_charges: 3 },
        affiliates_subscription_percentage: 10,
        allow_bank_slip_installments: true,
      },
    ],
    [
      'automatic PIX without type_of_charge',
      {
        allow_pix_recurring: true,
        pix_recurring_frequency: 'annual',
        pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
      },
    ],
    // quantity_items and freight depend on the product's type (service state): never required here.
    ['neither quantity_items nor freight', { price: 990 }],
  ])('sends %s', async (_what, params) => {
    expect(await sent(params)).toEqual(params);
  });
});

describe('offers types', () => {
  it('exports the parameter and result types from the package entry', () => {
    const client = makeClient();
    expectTypeOf(client.offers.update).parameter(2).toEqualTypeOf<UpdateOfferParams>();
    expectTypeOf(client.offers.update).returns.resolves.toEqualTypeOf<Offer>();
    expectTypeOf<UpdateOfferParams['type_of_charge']>().toEqualTypeOf<
      'one-time' | 'recurring' | undefined
    >();
  });
});
