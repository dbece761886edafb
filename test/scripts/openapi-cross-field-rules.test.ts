import { describe, expect, it } from 'vitest';
import document from '../../docs/openapi.json' with { type: 'json' };
import { OfferUpdateParamsSchema, UserUpdateParamsSchema } from '../../src/schemas';
import { paulistaAddress } from '../helpers/addresses';
import { ajv } from '../helpers/openapi-document';

/**
 * The rules of spec §4.1 and §4.6 that tie one request field to another, in docs/openapi.json: a
 * client generated from the document must know them, or it sends a body the service answers with
 * a 422. Each body's verdict below comes from the spec's words; the SDK's own check (its zod
 * schema) is held to the same verdicts, so the two cannot drift apart.
 */

const component = (name: string) => ajv.getSchema(`openapi.json#/components/schemas/${name}`);
const userForm = ajv.compile({
  $ref: 'openapi.json#/paths/~1users~1update/post/requestBody/content/multipart~1form-data/schema',
});

/** [what the spec says, the body, whether the service takes it]. */
type Case = [string, Record<string, unknown>, boolean];

const person = { name: 'Ana Souza', address: paulistaAddress };
const PROFILE: Case[] = [
  [
    'a person (cpf) with a birth date',
    { ...person, cpf: '529.982.247-25', birth: '1990-04-01' },
    true,
  ],
  ['§4.1: birth is required for a person (cpf)', { ...person, cpf: '529.982.247-25' }, false],
  [
    'a company (cnpj) with its type and legal name',
    { ...person, cnpj: '12.345.678/0001-90', company_type: 'mei', social_name: 'Ana Ltda' },
    true,
  ],
  [
    '§4.1: company_type is required for a company (cnpj)',
    { ...person, cnpj: '12.345.678/0001-90', social_name: 'Ana Ltda' },
    false,
  ],
  [
    '§4.1: social_name is required for a company (cnpj)',
    { ...person, cnpj: '12.345.678/0001-90', company_type: 'mei' },
    false,
  ],
  // Rule 1: the variant is chosen in a way not stated; with both tax ids the body names neither.
  [
    'both tax ids: the service chooses the variant',
    { ...person, cpf: '529.982.247-25', cnpj: '12.345.678/0001-90' },
    true,
  ],
  // Rule 2: the user's type chooses the tax id, a type the body does not carry.
  ['no tax id: the variant is the user type’s', { ...person }, true],
];

const OFFER: Case[] = [
  [
    'automatic PIX with its frequency and authorization type',
    {
      allow_pix_recurring: true,
      pix_recurring_frequency: 'monthly',
      pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
    },
    true,
  ],
  [
    '§4.6: pix_recurring_frequency is required when allow_pix_recurring is true',
    { allow_pix_recurring: true, pix_recurring_authorization_type: 'monthly_auth_monthly_retry' },
    false,
  ],
  [
    '§4.6: pix_recurring_authorization_type is required when allow_pix_recurring is true',
    { allow_pix_recurring: true, pix_recurring_frequency: 'monthly' },
    false,
  ],
  ['automatic PIX off needs neither', { allow_pix_recurring: false }, true],
  [
    '§4.6 rule 1: automatic PIX applies only to recurring offers',
    {
      type_of_charge: 'one-time',
      allow_pix_recurring: true,
      pix_recurring_frequency: 'monthly',
      pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
    },
    false,
  ],
  [
    '§4.6: commission_only_first_installment is for recurring offers only',
    { type_of_charge: 'one-time', commission_only_first_installment: true },
    false,
  ],
  [
    '§4.6: affiliates_subscription_percentage is for recurring offers only',
    { type_of_charge: 'one-time', affiliates_subscription_percentage: 10 },
    false,
  ],
  [
    '§4.6: subscription is for recurring offers',
    { type_of_charge: 'one-time', subscription: { trial_days: 7 } },
    false,
  ],
  [
    'a one-time offer may say a recurring-only flag is off',
    {
      type_of_charge: 'one-time',
      commission_only_first_installment: false,
      allow_pix_recurring: false,
    },
    true,
  ],
  [
    'a recurring offer with its recurring-only fields',
    {
      type_of_charge: 'recurring',
      commission_only_first_installment: true,
      affiliates_subscription_percentage: 10,
      subscription: { trial_days: 7 },
    },
    true,
  ],
  [
    '§4.6: allow_bank_slip_installments is for non-recurring offers only',
    { type_of_charge: 'recurring', allow_bank_slip_installments: true },
    false,
  ],
  [
    'a one-time offer in bank-slip installments',
    { type_of_charge: 'one-time', allow_bank_slip_installments: true },
    true,
  ],
  // Without type_of_charge the body does not say which kind the offer is: the service judges.
  [
    'recurring-only fields on an offer of unsaid kind',
    { commission_only_first_installment: true },
    true,
  ],
];

describe('docs/openapi.json: the request rules across fields', () => {
  it.each(PROFILE)('the profile update: %s', (_rule, body, taken) => {
    expect(component('UserUpdateParams')?.(body)).toBe(taken);
    expect(UserUpdateParamsSchema.safeParse(body).success).toBe(taken);
  });

  it.each(OFFER)('the offer update: %s', (_rule, body, taken) => {
    expect(component('OfferUpdateParams')?.(body)).toBe(taken);
    expect(OfferUpdateParamsSchema.safeParse(body).success).toBe(taken);
  });

  it('holds the profile rules on the multipart form as it travels', () => {
    const flat = (body: Record<string, unknown>) => {
      const { address, ...rest } = body as { address: Record<string, string> };
      return {
        ...rest,
        ...Object.fromEntries(Object.entries(address).map(([k, v]) => [`address[${k}]`, v])),
      };
    };
    for (const [rule, body, taken] of PROFILE) expect(userForm(flat(body)), rule).toBe(taken);
  });

  it('says each rule in words, for a reader of the document', () => {
    const { UserUpdateParams, OfferUpdateParams } = document.components.schemas as Record<
      string,
      { allOf?: { description?: string }[] }
    >;
    for (const rules of [UserUpdateParams?.allOf, OfferUpdateParams?.allOf]) {
      expect(rules?.length).toBeGreaterThan(0);
      expect(rules?.filter((rule) => !rule.description)).toEqual([]);
    }
  });
});
