/**
 * Results are named types (issue 14): what each method resolves to is the interface a partner reads
 * in the reference, callbacks get the named status types, and a misspelled field read on a result
 * is a compile error (the interfaces carry no `[x: string]: unknown` index).
 */

import {
  type AnticipationConfirmation,
  type APIPromise,
  type BankAccount,
  type FeeTierChange,
  type Offer,
  type Page,
  type PagePromise,
  PartnerClient,
  type PollOptions,
  type Product,
  type Refund,
  type RefundState,
  type RefundStatus,
  type StatementExport,
  type StatementExportRequestResult,
  type StatementExportState,
  type User,
} from 'partner-sdk';
import { describe, expectTypeOf, test } from 'vitest';

const client = new PartnerClient({ baseUrl: 'https://partner.example.com/api/v1' });
const seller = client.forUser('public-token');

describe('each method resolves to its named type', () => {
  test('reads and lists', () => {
    expectTypeOf(client.products.retrieve).returns.toEqualTypeOf<APIPromise<Product>>();
    expectTypeOf(client.products.list).returns.toEqualTypeOf<PagePromise<Product>>();
    expectTypeOf(seller.refunds.list).returns.toEqualTypeOf<APIPromise<Refund[]>>();
    expectTypeOf(seller.refunds.retrieveStatus).returns.toEqualTypeOf<APIPromise<RefundStatus>>();
    expectTypeOf(seller.feeTiers.history).returns.toEqualTypeOf<APIPromise<FeeTierChange[]>>();
    expectTypeOf(seller.statements.retrieve).returns.toEqualTypeOf<APIPromise<StatementExport>>();
  });

  test('updates and actions', () => {
    expectTypeOf(seller.offers.update).returns.toEqualTypeOf<APIPromise<Offer>>();
    expectTypeOf(seller.users.update).returns.toEqualTypeOf<APIPromise<User>>();
    expectTypeOf(seller.bankAccounts.update).returns.toEqualTypeOf<APIPromise<BankAccount>>();
    expectTypeOf(seller.anticipations.confirm).returns.toEqualTypeOf<
      APIPromise<AnticipationConfirmation>
    >();
    expectTypeOf(seller.statements.export).returns.toEqualTypeOf<
      APIPromise<StatementExportRequestResult>
    >();
    expectTypeOf(seller.refunds.requestAndWait).returns.toEqualTypeOf<Promise<RefundStatus>>();
  });
});

describe('callbacks get the named status types', () => {
  test('a refund wait reports RefundState', () => {
    seller.refunds.waitForCompletion('tx_1', {
      onStatus: (status, current) => {
        expectTypeOf(status).toEqualTypeOf<RefundState>();
        expectTypeOf(current).toEqualTypeOf<RefundStatus>();
      },
    });
    expectTypeOf<Parameters<NonNullable<PollOptions<RefundStatus>['onStatus']>>[0]>().toEqualTypeOf<
      'requested' | 'success' | 'completed' | 'failed' | (string & {})
    >();
  });

  test('an export wait reports StatementExportState, or undefined when a poll sent none', () => {
    seller.statements.waitForExport('exp_1', {
      onStatus: (status) => {
        expectTypeOf(status).toEqualTypeOf<StatementExportState | undefined>();
      },
    });
  });
});

describe('a misspelled field read is an error', () => {
  test('on a product and an offer', () => {
    const product = {} as Product;
    const offer = {} as Offer;
    // @ts-expect-error nmae is not a field of Product (name is)
    product.nmae;
    // @ts-expect-error prise is not a field of Offer (price is)
    offer.prise;
    expectTypeOf(offer.price).toEqualTypeOf<number | null | undefined>();
  });
});

describe('pages and collections', () => {
  test('iterPages yields pages, toArray resolves to items', () => {
    expectTypeOf(client.products.list().iterPages()).toExtend<AsyncIterable<Page<Product>>>();
    expectTypeOf(client.products.list().toArray({ limit: 10 })).toEqualTypeOf<Promise<Product[]>>();
    // @ts-expect-error toArray needs a limit
    client.products.list().toArray();
  });
});
