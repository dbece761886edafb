// The mock's data are hand-written from the spec; the SDK's response schemas must accept them.
// A disagreement means one of the two misread the spec.

import { describe, expect, it } from 'vitest';
import {
  AnticipationConfirmationSchema,
  AnticipationListResponseSchema,
  BankAccountSchema,
  FeeTierHistoryResponseSchema,
  OfferSchema,
  ProductListResponseSchema,
  ProductSchema,
  RefundAcceptedResponseSchema,
  RefundExistingResponseSchema,
  RefundListResponseSchema,
  RefundStatusResponseSchema,
  StatementExportResponseSchema,
  UserSchema,
} from '../../src/schemas';
import { createMockPartnerApi } from '../../src/testing';
import { call, clientHeaders } from './helpers';

type Schema = { safeParse(value: unknown): { success: boolean; error?: unknown } };

function expectValid(schema: Schema, value: unknown) {
  const result = schema.safeParse(value);
  expect(result.error).toBeUndefined();
  expect(result.success).toBe(true);
}

const PHYSICAL_UPDATE = { quantity_items: 5, freight: { type: 'shipping_company' } };

describe("the mock's wire data agree with the SDK's response schemas", () => {
  it('products, offers and lists', async () => {
    const mock = createMockPartnerApi();
    const list = await call(mock, 'GET', '/products?per_page=50');
    expectValid(ProductListResponseSchema, list.body);
    for (const handle of Object.values(mock.products).filter(
      (h) => typeof h === 'object' && 'hash' in h,
    )) {
      const { hash, offerCode } = handle as { hash: string; offerCode: string };
      expectValid(ProductSchema, (await call(mock, 'GET', `/products/${hash}`)).body);
      // A physical product's offer takes its stock and freight on every update.
      const body = handle === mock.products.physical ? PHYSICAL_UPDATE : {};
      expectValid(
        OfferSchema,
        (await call(mock, 'PUT', `/products/${hash}/offers/${offerCode}`, body)).body,
      );
    }
  });

  it('refunds, exports, anticipations, fee tiers, bank accounts and users', async () => {
    const mock = createMockPartnerApi();
    const trx = mock.transactions.refundable[0]!;
    expectValid(
      RefundAcceptedResponseSchema,
      (await call(mock, 'POST', `/financial/refund/${trx}`)).body,
    );
    expectValid(
      RefundExistingResponseSchema,
      (await call(mock, 'POST', `/financial/refund/${trx}`)).body,
    );
    expectValid(
      RefundStatusResponseSchema,
      (await call(mock, 'GET', `/financial/refund/${trx}/status`)).body,
    );
    expectValid(
      RefundListResponseSchema,
      (await call(mock, 'GET', `/financial/refund/${mock.transactions.withPastRefund}`)).body,
    );
    const exp = await call(mock, 'POST', '/financial/account-statement/export-report', {
      format: 'csv',
    });
    expectValid(StatementExportResponseSchema, exp.body);
    expectValid(
      StatementExportResponseSchema,
      (await call(mock, 'GET', `/financial/account-statement/export-report/${exp.body.data.hash}`))
        .body,
    );
    expectValid(
      AnticipationConfirmationSchema,
      (
        await call(
          mock,
          'POST',
          `/financial/anticipation/confirm/${mock.anticipations.confirmable[0]}`,
          {
            scenario: 'below',
          },
        )
      ).body,
    );
    expectValid(
      AnticipationListResponseSchema,
      (await call(mock, 'GET', '/financial/anticipation')).body,
    );
    expectValid(
      FeeTierHistoryResponseSchema,
      (await call(mock, 'GET', '/users/fee-tiers/history')).body,
    );
    expectValid(
      BankAccountSchema,
      (
        await call(mock, 'POST', `/users/bank-accounts/${mock.bankAccounts.pix}`, {
          holder_name: 'Maria',
        })
      ).body,
    );
    const form = new FormData();
    for (const [k, v] of Object.entries({
      name: 'Maria Aparecida Souza',
      'address[zip_code]': '01310-100',
      'address[city]': 'São Paulo',
      'address[state]': 'SP',
      'address[country]': 'Brasil',
      'address[street]': 'Avenida Paulista',
      'address[street_number]': '1578',
      'address[neighborhood]': 'Bela Vista',
      cpf: '529.982.247-25',
      birth: '1988-04-12',
    }))
      form.set(k, v);
    const user = await mock.fetch(`${mock.baseUrl}/users/update`, {
      method: 'POST',
      headers: clientHeaders(mock, { Authorization: `Bearer ${mock.sellers.person.publicToken}` }),
      body: form,
    });
    expect(user.status).toBe(200);
    expectValid(UserSchema, await user.json());
  });
});
