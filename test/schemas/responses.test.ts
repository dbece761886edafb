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
import {
  wireAnticipation,
  wireBankAccount,
  wireExport,
  wireFeeTierChange,
  wireOffer,
  wireProduct,
  wireRefund,
  wireShippedOffer,
  wireUser,
} from '../helpers/kit-fixtures';
import { issuePaths } from './helpers';

// Wire data from the testing kit's fixtures: hand-written from the spec's tables (§2), as the
// service would send them, never generated from these schemas. Spread into plain records, which
// is what the cases below index.
const user = { ...wireUser() };
const bankAccount = { ...wireBankAccount() };
const product = { ...wireProduct() };
const offer = { ...wireOffer(), freight: wireShippedOffer().freight };
const refund = { ...wireRefund() };
const anticipation = { ...wireAnticipation() };
const feeTierChange = { ...wireFeeTierChange() };

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
      data: wireExport('exp_3c4d'),
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
