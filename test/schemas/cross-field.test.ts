import { describe, expect, it } from 'vitest';
import { OfferUpdateParamsSchema, UserUpdateParamsSchema } from '../../src/schemas';
import { paulistaAddress as address } from '../helpers/addresses';
import { expectIssueAt, expectValid, issuePaths } from './helpers';

const user = { name: 'Ana Souza', address };

describe('profile variant follows the tax id sent (spec §4.1)', () => {
  it('requires birth when cpf is sent', () => {
    expectIssueAt(UserUpdateParamsSchema, { ...user, cpf: '123.456.789-09' }, 'birth');
    expectValid(UserUpdateParamsSchema, { ...user, cpf: '123.456.789-09', birth: '1990-01-01' });
  });

  it('requires company_type and social_name when cnpj is sent', () => {
    const company = { ...user, cnpj: '12.345.678/0001-95' };
    expect(issuePaths(UserUpdateParamsSchema, company).sort()).toEqual([
      'company_type',
      'social_name',
    ]);
    expectIssueAt(UserUpdateParamsSchema, { ...company, company_type: 'mei' }, 'social_name');
    expectIssueAt(UserUpdateParamsSchema, { ...company, social_name: 'Ana LTDA' }, 'company_type');
    expectValid(UserUpdateParamsSchema, {
      ...company,
      company_type: 'mei',
      social_name: 'Ana LTDA',
    });
  });

  it('requires neither variant when no tax id is sent (the user type is service state)', () => {
    expectValid(UserUpdateParamsSchema, user);
    expectValid(UserUpdateParamsSchema, { ...user, birth: '1990-01-01' });
    expectValid(UserUpdateParamsSchema, { ...user, company_type: 'real' });
  });

  it('leaves company_partner to the service (required once, forbidden after: service state)', () => {
    expectValid(UserUpdateParamsSchema, {
      ...user,
      cnpj: '12.345.678/0001-95',
      company_type: 'mei',
      social_name: 'Ana LTDA',
    });
    expectValid(UserUpdateParamsSchema, {
      ...user,
      company_partner: { name: 'Ana Souza', cpf: '123.456.789-09', birth: '1990-01-01' },
    });
  });

  it('leaves the under-18 fields to the service (they depend on the clock)', () => {
    const minor = { ...user, cpf: '123.456.789-09', birth: '2015-06-01' };
    expectValid(UserUpdateParamsSchema, minor);
    expectValid(UserUpdateParamsSchema, { ...minor, is_emancipated: false });
    expectValid(UserUpdateParamsSchema, {
      ...user,
      cpf: '123.456.789-09',
      birth: '1960-01-01',
      is_emancipated: true,
    });
  });
});

describe('automatic PIX (spec §4.6)', () => {
  const pix = {
    allow_pix_recurring: true,
    pix_recurring_frequency: 'monthly',
    pix_recurring_authorization_type: 'monthly_auth_monthly_retry',
  };

  it('needs frequency and authorization type when allow_pix_recurring is true', () => {
    expect(issuePaths(OfferUpdateParamsSchema, { allow_pix_recurring: true }).sort()).toEqual([
      'pix_recurring_authorization_type',
      'pix_recurring_frequency',
    ]);
    expectIssueAt(
      OfferUpdateParamsSchema,
      { ...pix, pix_recurring_frequency: undefined, type_of_charge: 'recurring' },
      'pix_recurring_frequency',
    );
    expectValid(OfferUpdateParamsSchema, { ...pix, type_of_charge: 'recurring' });
  });

  it('needs neither when allow_pix_recurring is false or absent', () => {
    expectValid(OfferUpdateParamsSchema, { allow_pix_recurring: false });
    expectValid(OfferUpdateParamsSchema, { type_of_charge: 'recurring' });
  });

  it('refuses automatic PIX when the body makes the offer one-time', () => {
    const paths = issuePaths(OfferUpdateParamsSchema, { ...pix, type_of_charge: 'one-time' });
    expect(paths).toContain('allow_pix_recurring');
    expect(paths).toContain('pix_recurring_frequency');
  });

  it('leaves the charge type to the service when the body does not send it', () => {
    expectValid(OfferUpdateParamsSchema, pix);
  });

  it('does not check the producer enablement (service state: saved as false without error)', () => {
    expectValid(OfferUpdateParamsSchema, { ...pix, type_of_charge: 'recurring', price: 4990 });
  });
});

describe('recurring-only and non-recurring-only offer fields (spec §4.6)', () => {
  const recurringOnly = {
    commission_only_first_installment: true,
    affiliates_subscription_percentage: 30,
    subscription: { trial_days: 7, max_charges: 12 },
  };

  it.each(Object.entries(recurringOnly))(
    'refuses %s when type_of_charge is one-time',
    (field, value) => {
      expectIssueAt(OfferUpdateParamsSchema, { type_of_charge: 'one-time', [field]: value }, field);
    },
  );

  it.each(Object.entries(recurringOnly))(
    'accepts %s when type_of_charge is recurring',
    (field, value) => {
      expectValid(OfferUpdateParamsSchema, { type_of_charge: 'recurring', [field]: value });
    },
  );

  it.each(Object.entries(recurringOnly))(
    'accepts %s when type_of_charge is not sent',
    (field, value) => {
      expectValid(OfferUpdateParamsSchema, { [field]: value });
    },
  );

  it('accepts a recurring-only switch turned off on a one-time offer', () => {
    expectValid(OfferUpdateParamsSchema, {
      type_of_charge: 'one-time',
      commission_only_first_installment: false,
      allow_pix_recurring: false,
    });
  });

  it('refuses allow_bank_slip_installments when type_of_charge is recurring', () => {
    expectIssueAt(
      OfferUpdateParamsSchema,
      { type_of_charge: 'recurring', allow_bank_slip_installments: true },
      'allow_bank_slip_installments',
    );
    expectValid(OfferUpdateParamsSchema, {
      type_of_charge: 'recurring',
      allow_bank_slip_installments: false,
    });
  });

  it('accepts allow_bank_slip_installments when one-time or when the type is not sent', () => {
    expectValid(OfferUpdateParamsSchema, {
      type_of_charge: 'one-time',
      allow_bank_slip_installments: true,
      bank_slip_installments_limit: 12,
    });
    expectValid(OfferUpdateParamsSchema, { allow_bank_slip_installments: true });
  });

  it('does not require quantity_items or freight (the product type is service state)', () => {
    expectValid(OfferUpdateParamsSchema, { name: 'Kit físico', price: 19_990 });
  });

  it('reports the cross-field issue together with field issues', () => {
    expect(
      issuePaths(OfferUpdateParamsSchema, {
        type_of_charge: 'one-time',
        price: -5,
        commission_only_first_installment: true,
      }).sort(),
    ).toEqual(['commission_only_first_installment', 'price']);
  });
});
