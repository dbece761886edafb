import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  AnticipationConfirmationSchema,
  AnticipationListResponseSchema,
  AnticipationSchema,
  BankAccountSchema,
  FeeTierHistoryResponseSchema,
  OfferSchema,
  ProductListResponseSchema,
  ProductSchema,
  RefundAcceptedResponseSchema,
  RefundExistingResponseSchema,
  RefundListResponseSchema,
  RefundStatusSchema,
  StatementExportResponseSchema,
  UserSchema,
} from '../../src/schemas';
import { issuePaths } from './helpers';

// Wire fixtures written by hand from the spec's tables (§2), as the service would send them.

const user = {
  name: 'Ana Souza',
  code: 'usr_8f2k1',
  status: 'active',
  is_approved: true,
  is_registration_completed: false,
  type: 'person',
  email: 'ana@example.com',
  public_token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3JfOGYyazEifQ.sig',
  avatar: 'https://cdn.example.com/avatars/usr_8f2k1.png',
  address: {
    zip_code: '01310-100',
    city: 'São Paulo',
    state: 'SP',
    country: 'Brasil',
    street: 'Avenida Paulista',
    street_number: 'S/N',
    neighborhood: 'Bela Vista',
    complement: null,
    is_default: true,
  },
  phones: [{ id: 31, ddi: '55', ddd: '11', type: 'whatsapp', number: '912345678' }],
  about: null,
  website: null,
  recovery_email: null,
  nickname: 'Ana',
  birth: '1990-01-01',
  is_emancipated: false,
  cpf: '123.456.789-09',
  cnpj: null,
  company_type: null,
};

const bankAccount = {
  code: 'ba_77x',
  holder_name: 'Ana Souza',
  receiver_type: 'pix',
  pix_key: 'ana@example.com',
  bank_code: '260',
  branch_number: '0001',
  branch_check_digit: null,
  account_number: '1234567',
  account_check_digit: '8',
  status: 'pending',
};

const product = {
  hash: 'prd_k29dj',
  name: 'Curso de Pães Artesanais',
  category_id: 12,
  description: 'Aprenda a fazer pães em casa.',
  type: 'course',
  support_email: 'suporte@example.com',
  support_phone: '11912345678',
  refund_deadline: 7,
  status: 'approved',
  created_at: '2024-03-01 10:15:00',
  updated_at: '2024-03-02 08:00:00',
  soft_descriptor: 'PAES ANA',
  image_stock: null,
  cover_picture: 'https://cdn.example.com/covers/prd_k29dj.jpg',
  is_active: true,
  has_auto_affiliation: false,
  allow_affiliation: true,
  affiliate_commission_type: 'multi',
  first_click_percentage: 40,
  last_click_percentage: 60,
  metadata: {
    links: {
      sales_page_url: 'https://ana.example.com/paes',
      sales_page_absence_reason: null,
      page_released: 'yes',
      without_sales_page: false,
    },
  },
};

const offer = {
  code: 'off_x81',
  name: 'Plano mensal',
  type_of_charge: 'recurring',
  price: 4990,
  allow_credit_card: true,
  credit_card_installments_options: [1, 2, 3, 12],
  allow_pix: true,
  allow_bank_slip: false,
  created_at: '2024-03-01 10:15:00',
  updated_at: '2024-03-05 18:40:12',
  fake_initial_price: 9990,
  quantity_items: null,
  allow_bank_slip_installments: false,
  bank_slip_days_due: 3,
  bank_slip_installments_limit: 1,
  allow_affiliates: true,
  affiliates_percentage: 30,
  affiliates_subscription_percentage: 20,
  commission_only_first_installment: false,
  producer_pays_interest: false,
  is_free: false,
  transfer_fixed_fee_to_buyer: true,
  subscription: {
    interval: 'weekly',
    trial_days: 7,
    trial_days_text: false,
    first_charge_price: 990,
    is_extension: false,
    extension_length: null,
    max_charges: 12,
    max_charges_attempts: 3,
  },
  freight: {
    type: 'shipping_company',
    preparation_day: 2,
    start_day: 3,
    end_day: 10,
    fixed_price: 19.9,
    free_states: ['SP'],
    blocked_states: [],
    is_pac: true,
    is_sedex: false,
    pac_fallback_price: 25.5,
    pac_fallback_end_day: 12,
    sedex_fallback_price: null,
    sedex_fallback_end_day: null,
    zip_code: '01310-100',
    weight: 0.5,
    length: 20,
    width: 15,
    height: 5,
  },
};

const refund = {
  hash: 'ref_1a2b',
  transaction_hash: 'tx_9z8y',
  status: 'requested',
  amount: 4990,
  observation: 'Cliente desistiu',
  created_at: '05/03/2024 14:22:10',
  updated_at: '05/03/2024 14:22:10',
};

const anticipation = {
  hash: 'ant_55q',
  status: 'approved',
  amount: 100000,
  fee: 2500,
  net_value: 97500,
  created_at: '2024-03-05T14:22:10-03:00',
};

const feeTierChange = {
  action: 'update',
  old: { fixed_fee: 249, percentage: 4.99 },
  new: { fixed_fee: 199, percentage: 3.99 },
  observation: 'Faixa de taxa atualizada pelo operador',
  changed_by: { name: 'Operador Silva', email: 'operador@example.com' },
  created_at: '2024-03-05T17:22:10.123456Z',
};

interface Case {
  schema: z.ZodMiniType;
  fixture: Record<string, unknown>;
  /** A field whose wrong type must fail. */
  typed: [path: string, wrong: unknown];
  /** Required fields (identity, "always present"). */
  required: string[];
  /** Fields that are open enums, with an unknown value to try. */
  openEnums: string[];
}

const cases: Record<string, Case> = {
  User: {
    schema: UserSchema,
    fixture: user,
    typed: ['is_approved', 'yes'],
    required: ['name', 'code', 'status', 'type', 'email'],
    openEnums: ['status', 'type', 'company_type'],
  },
  BankAccount: {
    schema: BankAccountSchema,
    fixture: bankAccount,
    typed: ['holder_name', 42],
    required: ['code'],
    openEnums: ['receiver_type', 'status'],
  },
  Product: {
    schema: ProductSchema,
    fixture: product,
    typed: ['category_id', '12'],
    required: ['hash'],
    openEnums: ['type', 'status', 'affiliate_commission_type'],
  },
  Offer: {
    schema: OfferSchema,
    fixture: offer,
    typed: ['price', '49.90'],
    required: ['code'],
    openEnums: ['type_of_charge'],
  },
  Anticipation: {
    schema: AnticipationSchema,
    fixture: anticipation,
    typed: ['amount', '100000'],
    required: ['hash'],
    openEnums: ['status'],
  },
  AnticipationConfirmation: {
    schema: AnticipationConfirmationSchema,
    fixture: { amount: 100000, status: 'approved', created_at: '2024-03-05T14:22:10-03:00' },
    typed: ['amount', '100000'],
    required: [],
    openEnums: ['status'],
  },
  RefundStatus: {
    schema: RefundStatusSchema,
    fixture: { status: 'completed', transaction_hash: 'tx_9z8y' },
    typed: ['amount', '49.90'],
    required: ['status'],
    openEnums: ['status'],
  },
};

describe('response schemas (spec §2, DESIGN §5)', () => {
  for (const [name, { schema, fixture, typed, required, openEnums }] of Object.entries(cases)) {
    describe(name, () => {
      it('parses a wire fixture written from the spec', () => {
        expect(schema.parse(fixture)).toEqual(fixture);
      });

      it('keeps keys the spec does not list', () => {
        const parsed = schema.parse({ ...fixture, brand_new: { nested: [1] } }) as object;
        expect(parsed).toHaveProperty('brand_new', { nested: [1] });
      });

      it('accepts null or absence in every optional field', () => {
        const nulls = Object.fromEntries(
          Object.keys(fixture).map((key) => [key, required.includes(key) ? fixture[key] : null]),
        );
        expect(issuePaths(schema, nulls)).toEqual([]);
        const bare = Object.fromEntries(required.map((key) => [key, fixture[key]]));
        expect(issuePaths(schema, bare)).toEqual([]);
      });

      it.each(openEnums)('accepts an unknown value in %s', (field) => {
        expect(issuePaths(schema, { ...fixture, [field]: 'a-value-from-the-future' })).toEqual([]);
      });

      it(`fails on a wrong-typed ${typed[0]}`, () => {
        expect(issuePaths(schema, { ...fixture, [typed[0]]: typed[1] })).toEqual([typed[0]]);
      });

      it.each(required)('fails when %s is missing', (field) => {
        const { [field]: _dropped, ...rest } = fixture;
        expect(issuePaths(schema, rest)).toEqual([field]);
      });
    });
  }

  it('accepts a company user and an anticipation created outside the API', () => {
    expect(
      issuePaths(UserSchema, {
        ...user,
        type: 'company',
        cpf: null,
        cnpj: '12.345.678/0001-95',
        company_type: 'presumed',
        social_name: 'Ana Cursos LTDA',
      }),
    ).toEqual([]);
    expect(issuePaths(AnticipationSchema, { ...anticipation, hash: null })).toEqual([]);
  });

  it('accepts bank-account event fields and receiver types beyond pix and bank (spec §6.2)', () => {
    const parsed = BankAccountSchema.parse({
      ...bankAccount,
      receiver_type: 'checking',
      reason: null,
      bank_document: { url: 'https://cdn.example.com/docs/1.pdf' },
    });
    expect(parsed.receiver_type).toBe('checking');
  });

  it('checks nested objects and arrays by type, naming the path', () => {
    expect(issuePaths(UserSchema, { ...user, phones: [{ id: 'x' }] })).toEqual(['phones.0.id']);
    expect(issuePaths(OfferSchema, { ...offer, subscription: { max_charges: '12' } })).toEqual([
      'subscription.max_charges',
    ]);
    expect(issuePaths(OfferSchema, { ...offer, freight: { free_states: 'SP' } })).toEqual([
      'freight.free_states',
    ]);
    expect(
      issuePaths(ProductSchema, { ...product, metadata: { links: { without_sales_page: 'no' } } }),
    ).toEqual(['metadata.links.without_sales_page']);
  });

  it('does not check string formats in responses', () => {
    expect(
      issuePaths(UserSchema, {
        ...user,
        email: 'not an e-mail',
        website: 'not a url',
        cpf: '123',
        address: { zip_code: '1', state: 'São Paulo' },
      }),
    ).toEqual([]);
  });
});

describe('response bodies', () => {
  it('product list: data and meta', () => {
    const body = {
      data: [product, { hash: 'prd_2', name: null }],
      meta: { current_page: 1, last_page: 3, per_page: 50, total: 120 },
    };
    expect(ProductListResponseSchema.parse(body)).toEqual(body);
    expect(issuePaths(ProductListResponseSchema, { meta: body.meta })).toEqual(['data']);
    expect(issuePaths(ProductListResponseSchema, { data: [{ name: 'x' }] })).toEqual([
      'data.0.hash',
    ]);
  });

  it('anticipation list: envelope with data.anticipations and data.pagination', () => {
    const body = {
      status: 'success',
      message: 'Antecipações listadas',
      data: {
        anticipations: [anticipation, { ...anticipation, hash: null }],
        pagination: { current_page: 1, from: 1, per_page: 25, to: 2, total: 2, last_page: 1 },
      },
    };
    expect(AnticipationListResponseSchema.parse(body)).toEqual(body);
    const empty = {
      status: 'success',
      message: '',
      data: {
        anticipations: [],
        pagination: { current_page: 1, from: null, per_page: 25, to: null, total: 0, last_page: 1 },
      },
    };
    expect(issuePaths(AnticipationListResponseSchema, empty)).toEqual([]);
    expect(issuePaths(AnticipationListResponseSchema, { data: {} })).toEqual([
      'data.anticipations',
    ]);
  });

  it('refund accepted (202): status processing and data.transaction_hash', () => {
    const body = {
      status: 'processing',
      message: 'Reembolso em processamento',
      data: { transaction_hash: 'tx_9z8y' },
    };
    expect(RefundAcceptedResponseSchema.parse(body).data.transaction_hash).toBe('tx_9z8y');
  });

  it('refund existing (200): data is the refund', () => {
    const body = { status: 'success', message: 'Reembolso já solicitado', data: refund };
    expect(RefundExistingResponseSchema.parse(body).data).toEqual(refund);
    expect(issuePaths(RefundExistingResponseSchema, { ...body, data: { status: 'x' } })).toEqual([
      'data.hash',
    ]);
  });

  it('refund list: data is an array of refunds', () => {
    const body = {
      status: 'success',
      message: 'ok',
      data: [refund, { ...refund, hash: 'ref_2', status: 'chargeback_pending', observation: null }],
    };
    expect(RefundListResponseSchema.parse(body)).toEqual(body);
    expect(issuePaths(RefundListResponseSchema, { ...body, data: refund })).toEqual(['data']);
  });

  it('statement export: data is the export with url null while processing', () => {
    const body = {
      status: 'success',
      message: 'Exportação iniciada',
      data: { hash: 'exp_3c4d', status: 'processing', url: null },
    };
    expect(StatementExportResponseSchema.parse(body)).toEqual(body);
    expect(issuePaths(StatementExportResponseSchema, { data: { status: 'processing' } })).toEqual([
      'data.hash',
    ]);
  });

  it('fee-tier history: data is an array of changes', () => {
    const body = {
      status: 'success',
      message: 'ok',
      data: [feeTierChange, { ...feeTierChange, action: 'delete', new: null, changed_by: null }],
    };
    expect(FeeTierHistoryResponseSchema.parse(body)).toEqual(body);
    expect(issuePaths(FeeTierHistoryResponseSchema, { data: [{ old: 'x' }] })).toEqual([
      'data.0.old',
    ]);
  });

  it('envelope: status and message may be absent or null, data may not', () => {
    expect(issuePaths(RefundListResponseSchema, { data: [] })).toEqual([]);
    expect(issuePaths(RefundListResponseSchema, { status: null, message: null, data: [] })).toEqual(
      [],
    );
    expect(issuePaths(RefundListResponseSchema, { status: 'success', message: 'ok' })).toEqual([
      'data',
    ]);
    expect(issuePaths(RefundListResponseSchema, { status: 1, data: [] })).toEqual(['status']);
  });
});
