/**
 * Params are closed and typed (issue 14): for every method, a misspelled key and a wrong value type
 * are compile errors, and valid params compile. Each `@ts-expect-error` fails the type check if the
 * line below it stops being an error, so a reopened type cannot pass unnoticed.
 */

import {
  type CompanyProfileParams,
  type OfferUpdateParams,
  PartnerClient,
  type PersonProfileParams,
  type ProductListParams,
  type RefundRequestParams,
  type UserUpdateParams,
} from 'partner-sdk';
import { describe, expectTypeOf, test } from 'vitest';
import { paulistaAddress as address } from '../helpers/addresses';

const client = new PartnerClient({ baseUrl: 'https://partner.example.com/api/v1' });
const seller = client.forUser('public-token');

describe('products.list', () => {
  test('valid params compile', () => {
    client.products.list();
    client.products.list({ page: 2, per_page: 50 });
  });
  test('a misspelled key and a wrong value type are errors', () => {
    // @ts-expect-error perPage is not a documented key (per_page is)
    client.products.list({ perPage: 50 });
    // @ts-expect-error per_page is a number
    client.products.list({ per_page: '50' });
  });
});

describe('anticipations.list and anticipations.confirm', () => {
  test('valid params compile', () => {
    client.anticipations.list({ per_page: 100 });
    client.anticipations.confirm('ant_1', { scenario: 'below' });
  });
  test('a misspelled key and a wrong value type are errors', () => {
    // @ts-expect-error perPage is not a documented key
    client.anticipations.list({ perPage: 100 });
    // @ts-expect-error page is a number
    client.anticipations.list({ page: '1' });
    // @ts-expect-error senario is not a documented key
    client.anticipations.confirm('ant_1', { scenario: 'above', senario: 'above' });
    // @ts-expect-error scenario is 'above' or 'below'
    client.anticipations.confirm('ant_1', { scenario: 'sideways' });
  });
});

describe('offers.update', () => {
  test('valid params compile', () => {
    seller.offers.update('prd_1', 'off_1', {
      price: 19_900,
      type_of_charge: 'recurring',
      subscription: { trial_days: 7 },
      freight: { type: 'shipping_company', free_states: ['SP'] },
    });
  });
  test('a misspelled key and a wrong value type are errors, nested ones too', () => {
    // @ts-expect-error prise is not a documented key (price is)
    seller.offers.update('prd_1', 'off_1', { prise: 100 });
    // @ts-expect-error price is a number of cents
    seller.offers.update('prd_1', 'off_1', { price: '100' });
    // @ts-expect-error type_of_charge is 'one-time' or 'recurring'
    seller.offers.update('prd_1', 'off_1', { type_of_charge: 'monthly' });
    // @ts-expect-error trialDays is not a documented key of subscription
    seller.offers.update('prd_1', 'off_1', { subscription: { trialDays: 7 } });
  });
});

describe('refunds.request and refunds.requestAndWait', () => {
  test('valid params compile', () => {
    seller.refunds.request('tx_1');
    seller.refunds.request('tx_1', { reason: 'Customer asked', cancel_subscription: false });
    seller.refunds.requestAndWait('tx_1', { fraud_confirmed: true });
  });
  test('a misspelled key and a wrong value type are errors', () => {
    // @ts-expect-error reasn is not a documented key
    seller.refunds.request('tx_1', { reasn: 'Customer asked' });
    // @ts-expect-error fraud_confirmed is a boolean
    seller.refunds.request('tx_1', { fraud_confirmed: 'yes' });
    // @ts-expect-error fraudConfirmed is not a documented key
    seller.refunds.requestAndWait('tx_1', { fraudConfirmed: true });
  });
});

describe('bankAccounts.update', () => {
  test('valid params compile', () => {
    seller.bankAccounts.update('acc_1', {
      holder_name: 'Ana',
      receiver_type: 'pix',
      pix_key: null,
    });
  });
  test('a misspelled key and a wrong value type are errors', () => {
    // @ts-expect-error holderName is not a documented key
    seller.bankAccounts.update('acc_1', { holderName: 'Ana' });
    // @ts-expect-error receiver_type is 'pix' or 'bank'
    seller.bankAccounts.update('acc_1', { receiver_type: 'wire' });
  });
});

describe('users.update', () => {
  test('valid params compile', () => {
    seller.users.update({
      name: 'Ana Souza',
      cpf: '123.456.789-09',
      birth: '1990-04-01',
      address,
      phones: [{ type: 'mobile', number: '912345678' }],
      avatar: new Blob(['…'], { type: 'image/png' }),
    });
  });
  test('a misspelled key, a wrong value type and a missing required field are errors', () => {
    // @ts-expect-error nick_name is not a documented key (nickname is)
    seller.users.update({ name: 'Ana Souza', address, nick_name: 'ana' });
    // @ts-expect-error zipCode is not a documented key of address
    seller.users.update({ name: 'Ana Souza', address: { ...address, zipCode: '01310-100' } });
    // @ts-expect-error is_emancipated is a boolean
    seller.users.update({ name: 'Ana Souza', address, is_emancipated: 'no' });
    // @ts-expect-error address is required
    seller.users.update({ name: 'Ana Souza' });
  });
});

describe('users.update: the person and company variants (spec §4.1)', () => {
  const person = { name: 'Ana Souza', address, cpf: '123.456.789-09', birth: '1990-04-01' };
  const company = {
    name: 'Pães da Ana',
    address,
    cnpj: '12.345.678/0001-90',
    company_type: 'mei',
    social_name: 'Pães da Ana LTDA',
  } as const;

  test('each variant compiles with its own fields', () => {
    seller.users.update({ ...person, is_emancipated: true, emancipated_document: new Blob([]) });
    seller.users.update({ ...company, company_partner: { name: 'Ana Souza' } });
  });

  test('a variant missing what it requires is an error', () => {
    // @ts-expect-error a person needs birth
    seller.users.update({ name: 'Ana Souza', address, cpf: '123.456.789-09' });
    // @ts-expect-error a company needs social_name
    seller.users.update({ ...company, social_name: undefined });
    // @ts-expect-error a company needs company_type
    seller.users.update({ name: 'Pães', address, cnpj: '12.345.678/0001-90', social_name: 'P' });
    // @ts-expect-error a tax id is required by the user's type (rule 2): neither is sent here
    seller.users.update({ name: 'Ana Souza', address });
  });

  test('a mix of the variants is an error', () => {
    // @ts-expect-error social_name is a company field, not a person's
    seller.users.update({ ...person, social_name: 'Ana LTDA' });
    // @ts-expect-error company_partner is a company field, not a person's
    seller.users.update({ ...person, company_partner: { name: 'Bia' } });
    // @ts-expect-error birth is a person field, not a company's
    seller.users.update({ ...company, birth: '1990-04-01' });
    // @ts-expect-error the body is one variant or the other: not both tax ids (rule 1)
    seller.users.update({ ...person, cnpj: '12.345.678/0001-90' });
  });

  test('a variant narrows on its tax id', () => {
    const body = person as UserUpdateParams;
    if (body.cpf !== undefined) expectTypeOf(body).toEqualTypeOf<PersonProfileParams>();
    else expectTypeOf(body).toEqualTypeOf<CompanyProfileParams>();
  });
});

describe('statements.export', () => {
  test('valid params compile', () => {
    seller.statements.export({ format: 'csv', filter: { betweenDates: '01/01/2026,31/01/2026' } });
    seller.statements.export({
      filter: { betweenDates: { start: new Date(), end: '2026-01-31' } },
    });
  });
  test('a misspelled key and a wrong value type are errors', () => {
    // @ts-expect-error betweenDate is not a documented filter key
    seller.statements.export({ filter: { betweenDate: '01/01/2026,31/01/2026' } });
    // @ts-expect-error format is a string
    seller.statements.export({ format: 1 });
  });
});

describe('the escape hatch is typed too', () => {
  test('extraBody and extraQuery take records; an unknown option is an error', () => {
    seller.offers.update('prd_1', 'off_1', { price: 1 }, { extraBody: { checkout_theme: 'dark' } });
    client.products.list({}, { extraQuery: { status: 'approved' } });
    // @ts-expect-error extraQuery values are strings, numbers or booleans
    client.products.list({}, { extraQuery: { status: { nested: true } } });
    // @ts-expect-error extra_body is not an option (extraBody is)
    client.products.list({}, { extra_body: {} });
  });
});

describe('params types are closed (no index signature)', () => {
  test('no string key beyond the documented ones', () => {
    expectTypeOf<keyof ProductListParams>().toEqualTypeOf<'page' | 'per_page'>();
    expectTypeOf<keyof RefundRequestParams>().toEqualTypeOf<
      | 'observation'
      | 'reason'
      | 'fraud_confirmed'
      | 'refund_type'
      | 'cancel_subscription'
      | 'user_id'
    >();
    expectTypeOf<string>().not.toExtend<keyof OfferUpdateParams>();
    expectTypeOf<string>().not.toExtend<keyof UserUpdateParams>();
  });
});
