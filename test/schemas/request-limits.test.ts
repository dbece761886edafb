import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  AnticipationConfirmParamsSchema,
  AnticipationListParamsSchema,
  BankAccountUpdateParamsSchema,
  OfferUpdateParamsSchema,
  ProductListParamsSchema,
  RefundRequestParamsSchema,
  StatementExportParamsSchema,
  UserUpdateParamsSchema,
} from '../../src/schemas';
import { paulistaAddress } from '../helpers/addresses';
import { expectIssueAt, expectValid, withField } from './helpers';

const address = { ...paulistaAddress, street_number: 'S/N' };
const user = { name: 'Ana Souza', address };
const phone = { type: 'mobile', number: '912345678' };

const chars = (count: number) => 'a'.repeat(count);

interface Limit {
  schema: z.ZodMiniType;
  base: object;
  path: string;
  inside: unknown[];
  outside: unknown[];
}

/** Every documented limit of spec §2, §4 and §8, with values just inside and just outside. */
const limits: Record<string, Limit> = {
  'user name 3..191 characters': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'name',
    // Characters as PHP's mb_strlen counts them, code points: an accent written apart (NFD) is
    // one more, as it is to the service; an emoji, one surrogate pair, is one.
    inside: [chars(3), chars(191), `${'é'.repeat(190)}😀`, `${'e\u0301'.repeat(95)}a`, 'e\u0301e'],
    outside: [chars(2), chars(192), 42, 'e\u0301'.repeat(96), 'e\u0301'],
  },
  'user nickname max 191': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'nickname',
    inside: [chars(191)],
    outside: [chars(192)],
  },
  'user cpf ###.###.###-##': {
    schema: UserUpdateParamsSchema,
    base: { ...user, birth: '1990-01-01' },
    path: 'cpf',
    inside: ['123.456.789-09'],
    outside: ['12345678909', '123.456.789-0', '123.456.789-091', 'abc.def.ghi-jk'],
  },
  'user cnpj ##.###.###/####-##': {
    schema: UserUpdateParamsSchema,
    base: { ...user, company_type: 'mei', social_name: 'Loja da Ana LTDA' },
    path: 'cnpj',
    inside: ['12.345.678/0001-95'],
    outside: ['12345678000195', '12.345.678/0001-9', '12.345.678-0001/95'],
  },
  'user company_type mei | simple | presumed | real': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'company_type',
    inside: ['mei', 'simple', 'presumed', 'real'],
    outside: ['ltda', 'MEI'],
  },
  'user social_name max 191': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'social_name',
    inside: [chars(191)],
    outside: [chars(192)],
  },
  'user website is a URL': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'website',
    inside: ['https://ana.example.com/loja'],
    outside: ['ana.example.com', 'https://ana example.com', 'mailto:ana@example.com', 'https://'],
  },
  'user recovery_email is an e-mail': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'recovery_email',
    inside: ['ana@example.com', 'ana+loja@exemplo.com.br'],
    outside: ['ana.example.com', 'ana @example.com'],
  },
  'user is_emancipated is a boolean': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'is_emancipated',
    inside: [true, false],
    outside: ['yes', 1],
  },
  'user avatar is a file': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'avatar',
    inside: [
      new Blob(['x'], { type: 'image/png' }),
      new File(['x'], 'a.png', { type: 'image/png' }),
      new Uint8Array([1, 2]),
      new ArrayBuffer(2),
      new ReadableStream(),
    ],
    outside: ['/tmp/a.png', { name: 'a.png' }],
  },
  'user emancipated_document is a file': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'emancipated_document',
    inside: [new Blob(['%PDF'], { type: 'application/pdf' })],
    outside: ['document.pdf'],
  },
  'company_partner name max 191': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'company_partner.name',
    inside: [chars(191)],
    outside: [chars(192)],
  },
  'address zip_code 00000-000': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'address.zip_code',
    inside: ['01310-100'],
    outside: ['01310100', '1310-100', '01310-1000', undefined],
  },
  'address state two letters': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'address.state',
    inside: ['SP', 'rj'],
    outside: ['S', 'SPX', 'S1', undefined],
  },
  ...Object.fromEntries(
    ['city', 'country', 'street', 'street_number', 'neighborhood'].map((field) => [
      `address ${field} required, max 191`,
      {
        schema: UserUpdateParamsSchema,
        base: user,
        path: `address.${field}`,
        inside: [chars(1), chars(191)],
        outside: [chars(192), undefined],
      },
    ]),
  ),
  'address complement max 191': {
    schema: UserUpdateParamsSchema,
    base: user,
    path: 'address.complement',
    inside: [chars(191)],
    outside: [chars(192)],
  },
  'phone id 1..999999999': {
    schema: UserUpdateParamsSchema,
    base: { ...user, phones: [phone] },
    path: 'phones.0.id',
    inside: [1, 999_999_999],
    outside: [0, 1_000_000_000, 1.5],
  },
  'phone ddi max 5': {
    schema: UserUpdateParamsSchema,
    base: { ...user, phones: [phone] },
    path: 'phones.0.ddi',
    inside: ['55', '12345'],
    outside: ['123456'],
  },
  'phone ddd max 2': {
    schema: UserUpdateParamsSchema,
    base: { ...user, phones: [phone] },
    path: 'phones.0.ddd',
    inside: ['11'],
    outside: ['011'],
  },
  'phone number 8 or 9 digits': {
    schema: UserUpdateParamsSchema,
    base: { ...user, phones: [phone] },
    path: 'phones.0.number',
    inside: ['12345678', '912345678'],
    outside: ['1234567', '9123456789', '9123-4567'],
  },
  'phone type required, max 191': {
    schema: UserUpdateParamsSchema,
    base: { ...user, phones: [phone] },
    path: 'phones.0.type',
    inside: ['whatsapp', chars(191)],
    outside: [chars(192), undefined],
  },
  'offer name max 191': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'name',
    inside: [chars(191)],
    outside: [chars(192)],
  },
  'offer price integer 0..99999999': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'price',
    inside: [0, 99_999_999],
    outside: [-1, 100_000_000, 10.5, '100'],
  },
  'offer fake_initial_price integer': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'fake_initial_price',
    inside: [0, 19_990],
    outside: [199.9],
  },
  'offer type_of_charge one-time | recurring': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'type_of_charge',
    inside: ['one-time', 'recurring'],
    outside: ['monthly'],
  },
  'offer quantity_items integer 1..100': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'quantity_items',
    inside: [1, 100],
    outside: [0, 101, 2.5],
  },
  'offer bank_slip_days_due integer 1..7': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'bank_slip_days_due',
    inside: [1, 7],
    outside: [0, 8, 1.5],
  },
  'offer bank_slip_installments_limit integer 1..12': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'bank_slip_installments_limit',
    inside: [1, 12],
    outside: [0, 13],
  },
  'offer credit_card_installments_options each integer 1..36': {
    schema: OfferUpdateParamsSchema,
    base: { credit_card_installments_options: [1, 12, 36] },
    path: 'credit_card_installments_options.1',
    inside: [1, 36],
    outside: [0, 37, 2.5],
  },
  'offer affiliates_percentage 1..80': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'affiliates_percentage',
    inside: [1, 80, 12.5],
    outside: [0.99, 80.01],
  },
  'offer affiliates_subscription_percentage 1..80': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'affiliates_subscription_percentage',
    inside: [1, 80],
    outside: [0, 81],
  },
  'offer pix_recurring_frequency closed set': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'pix_recurring_frequency',
    inside: ['weekly', 'biweekly', 'monthly', 'quarterly', 'biannual', 'annual'],
    outside: ['daily'],
  },
  'offer pix_recurring_authorization_type only monthly_auth_monthly_retry': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'pix_recurring_authorization_type',
    inside: ['monthly_auth_monthly_retry'],
    outside: ['monthly_auth'],
  },
  'offer subscription numbers are integers': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'subscription.max_charges',
    inside: [12],
    outside: [1.5],
  },
  'offer freight free_states are strings': {
    schema: OfferUpdateParamsSchema,
    base: {},
    path: 'freight.free_states',
    inside: [['SP', 'RJ']],
    outside: ['SP'],
  },
  'refund reason max 1000': {
    schema: RefundRequestParamsSchema,
    base: {},
    path: 'reason',
    inside: [chars(1000)],
    outside: [chars(1001)],
  },
  'refund fraud_confirmed boolean': {
    schema: RefundRequestParamsSchema,
    base: {},
    path: 'fraud_confirmed',
    inside: [true],
    outside: ['true'],
  },
  'bank account holder_name max 191': {
    schema: BankAccountUpdateParamsSchema,
    base: {},
    path: 'holder_name',
    inside: [chars(191)],
    outside: [chars(192)],
  },
  'bank account receiver_type pix | bank': {
    schema: BankAccountUpdateParamsSchema,
    base: {},
    path: 'receiver_type',
    inside: ['pix', 'bank'],
    outside: ['checking'],
  },
  'bank account pix_key max 191, nullable': {
    schema: BankAccountUpdateParamsSchema,
    base: {},
    path: 'pix_key',
    inside: [chars(191), null],
    outside: [chars(192)],
  },
  'bank account branch_number max 20': {
    schema: BankAccountUpdateParamsSchema,
    base: {},
    path: 'branch_number',
    inside: ['1'.repeat(20)],
    outside: ['1'.repeat(21)],
  },
  'bank account branch_check_digit max 3': {
    schema: BankAccountUpdateParamsSchema,
    base: {},
    path: 'branch_check_digit',
    inside: ['123'],
    outside: ['1234'],
  },
  'bank account account_number max 20': {
    schema: BankAccountUpdateParamsSchema,
    base: {},
    path: 'account_number',
    inside: ['1'.repeat(20)],
    outside: ['1'.repeat(21)],
  },
  'bank account account_check_digit max 3': {
    schema: BankAccountUpdateParamsSchema,
    base: {},
    path: 'account_check_digit',
    inside: ['X'],
    outside: ['1234'],
  },
  'statement betweenDates wire shape': {
    schema: StatementExportParamsSchema,
    base: { format: 'csv' },
    path: 'filter.betweenDates',
    inside: ['01/01/2024,31/01/2024'],
    outside: ['2024-01-01,2024-01-31', '01/01/2024', '1/1/2024,31/1/2024', 20240101],
  },
  'anticipation scenario above | below': {
    schema: AnticipationConfirmParamsSchema,
    base: {},
    path: 'scenario',
    inside: ['above', 'below'],
    outside: ['middle', undefined],
  },
  'product list page integer 1..999': {
    schema: ProductListParamsSchema,
    base: {},
    path: 'page',
    inside: [1, 999],
    outside: [0, 1000, 1.5],
  },
  'product list per_page integer 1..50': {
    schema: ProductListParamsSchema,
    base: {},
    path: 'per_page',
    inside: [1, 50],
    outside: [0, 51],
  },
  'anticipation list page integer >= 1': {
    schema: AnticipationListParamsSchema,
    base: {},
    path: 'page',
    inside: [1, 100_000],
    outside: [0, -1, 2.5],
  },
  'anticipation list per_page integer 1..100': {
    schema: AnticipationListParamsSchema,
    base: {},
    path: 'per_page',
    inside: [1, 100],
    outside: [0, 101],
  },
};

describe('request limits (spec §2, §4, §8)', () => {
  for (const [name, { schema, base, path, inside, outside }] of Object.entries(limits)) {
    describe(name, () => {
      it.each(inside.map((value) => [value]))('accepts %o', (value) => {
        expectValid(schema, withField(base, path, value));
      });
      it.each(outside.map((value) => [value]))('refuses %o, naming the field', (value) => {
        const message = expectIssueAt(schema, withField(base, path, value), path);
        expect(message).not.toBe('Invalid input');
      });
    });
  }
});

describe('request messages', () => {
  it('names the rule that was broken', () => {
    expect(expectIssueAt(UserUpdateParamsSchema, { ...user, name: 'Al' }, 'name')).toBe(
      'Must be at least 3 characters',
    );
    expect(expectIssueAt(OfferUpdateParamsSchema, { price: -1 }, 'price')).toBe(
      'Must be between 0 and 99999999',
    );
    expect(expectIssueAt(UserUpdateParamsSchema, { ...user, cpf: '1', birth: 'x' }, 'cpf')).toBe(
      'Must have the format ###.###.###-##',
    );
    expect(expectIssueAt(OfferUpdateParamsSchema, { type_of_charge: 'x' }, 'type_of_charge')).toBe(
      'Expected one of: one-time, recurring',
    );
  });

  it('reports every broken field at once', () => {
    const result = UserUpdateParamsSchema.safeParse({
      name: 'Al',
      address: { ...address, state: 'SPX' },
      cnpj: '12.345.678/0001-95',
    });
    expect(result.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual([
      'address.state',
      'company_type',
      'name',
      'social_name',
    ]);
  });
});

describe('only documented rules', () => {
  it('passes undocumented extra fields through', () => {
    const body = { ...user, favourite_colour: 'blue', address: { ...address, reference: 'x' } };
    expect(UserUpdateParamsSchema.parse(body)).toEqual(body);
    expect(OfferUpdateParamsSchema.parse({ price: 100, brand_new_flag: true })).toEqual({
      price: 100,
      brand_new_flag: true,
    });
  });

  it('needs nothing beyond what the spec marks required', () => {
    expectValid(UserUpdateParamsSchema, user);
    expectValid(OfferUpdateParamsSchema, {});
    expectValid(BankAccountUpdateParamsSchema, {});
    expectValid(RefundRequestParamsSchema, {});
    expectValid(StatementExportParamsSchema, {});
    expectValid(ProductListParamsSchema, {});
    expectValid(AnticipationListParamsSchema, {});
  });

  it('requires the user name and address', () => {
    expectIssueAt(UserUpdateParamsSchema, { address }, 'name');
    expectIssueAt(UserUpdateParamsSchema, { name: 'Ana Souza' }, 'address');
  });

  it('accepts a full person profile and a full company profile', () => {
    expectValid(UserUpdateParamsSchema, {
      ...user,
      address: { ...address, complement: 'Apto 12', is_default: true },
      phones: [{ id: 7, ddi: '55', ddd: '11', type: 'whatsapp', number: '912345678' }],
      about: 'Cursos de culinária',
      website: 'https://ana.example.com',
      recovery_email: 'ana.recupera@example.com',
      nickname: 'Ana',
      cpf: '123.456.789-09',
      birth: '2008-03-01',
      is_emancipated: true,
      emancipated_document: new Blob(['%PDF-1.7'], { type: 'application/pdf' }),
      avatar: new Uint8Array([137, 80, 78, 71]),
    });
    expectValid(UserUpdateParamsSchema, {
      ...user,
      cnpj: '12.345.678/0001-95',
      company_type: 'simple',
      social_name: 'Ana Cursos LTDA',
      company_partner: { name: 'Ana Souza', cpf: '123.456.789-09', birth: '1990-01-01' },
    });
  });
});

describe('whole numbers past 2^53', () => {
  // Past Number.MAX_SAFE_INTEGER a JavaScript number is not exact (2^53 + 1 reads as 2^53), so a
  // documented integer without a bound of its own stops there, and the message says why.
  it.each([
    [2 ** 60, 'too_big'],
    [-(2 ** 60), 'too_small'],
  ])(
    'refuses %d with a message naming the safe range, not "Expected an integer"',
    (value, code) => {
      const result = OfferUpdateParamsSchema.safeParse({ fake_initial_price: value });
      expect(result.success).toBe(false);
      const [issue] = result.error?.issues ?? [];
      expect(issue?.path).toEqual(['fake_initial_price']);
      expect(issue?.code).toBe(code);
      expect(issue?.message).toBe(
        'Must be a whole number from -9007199254740991 to 9007199254740991, where a number is exact',
      );
    },
  );
});

describe('prices in cents', () => {
  // A price written in reais (19.90) is the likeliest mistake: the message says what is expected.
  it.each([
    ['price', { price: 19.9 }],
    ['fake_initial_price', { fake_initial_price: 0.1 + 0.2 }],
    ['subscription.first_charge_price', { subscription: { first_charge_price: 9.99 } }],
  ])('refuses a fraction in %s, asking for whole cents', (path, params) => {
    const result = OfferUpdateParamsSchema.safeParse(params);
    expect(result.success).toBe(false);
    const [issue] = result.error?.issues ?? [];
    expect(issue?.path.join('.')).toBe(path);
    expect(issue?.code).toBe('invalid_type');
    expect(issue?.message).toBe('Expected a whole number of cents (19.90 is 1990)');
  });
});
