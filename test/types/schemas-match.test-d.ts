/**
 * The zod schemas are the run-time truth and the named types are the documentation: each pair must
 * be the same type, so neither can drift from the other. `toEqualTypeOf` compares deeply (optional
 * fields, `null` and nested objects included) and in both directions.
 */

import type * as sdk from 'partner-sdk';
import { describe, expectTypeOf, test } from 'vitest';
import type * as z from 'zod/mini';

describe('each response schema infers its named type', () => {
  test('products (spec §2.5, §2.13)', () => {
    expectTypeOf<z.output<typeof sdk.ProductSchema>>().toEqualTypeOf<sdk.Product>();
    expectTypeOf<z.output<typeof sdk.ProductLinksSchema>>().toEqualTypeOf<sdk.ProductLinks>();
    expectTypeOf<z.output<typeof sdk.ProductMetadataSchema>>().toEqualTypeOf<sdk.ProductMetadata>();
    expectTypeOf<z.output<typeof sdk.ProductListMetaSchema>>().toEqualTypeOf<sdk.ProductListMeta>();
    expectTypeOf<
      z.output<typeof sdk.ProductListResponseSchema>
    >().toEqualTypeOf<sdk.ProductListResponse>();
  });

  test('offers (spec §2.6 to §2.8)', () => {
    expectTypeOf<z.output<typeof sdk.OfferSchema>>().toEqualTypeOf<sdk.Offer>();
    expectTypeOf<
      z.output<typeof sdk.OfferSubscriptionSchema>
    >().toEqualTypeOf<sdk.OfferSubscription>();
    expectTypeOf<z.output<typeof sdk.OfferFreightSchema>>().toEqualTypeOf<sdk.OfferFreight>();
  });

  test('users (spec §2.1 to §2.3)', () => {
    expectTypeOf<z.output<typeof sdk.UserSchema>>().toEqualTypeOf<sdk.User>();
    expectTypeOf<z.output<typeof sdk.AddressSchema>>().toEqualTypeOf<sdk.Address>();
    expectTypeOf<z.output<typeof sdk.PhoneSchema>>().toEqualTypeOf<sdk.Phone>();
  });

  test('bank accounts (spec §2.4)', () => {
    expectTypeOf<z.output<typeof sdk.BankAccountSchema>>().toEqualTypeOf<sdk.BankAccount>();
  });

  test('refunds (spec §2.9, §4.2, §4.3)', () => {
    expectTypeOf<z.output<typeof sdk.RefundSchema>>().toEqualTypeOf<sdk.Refund>();
    expectTypeOf<z.output<typeof sdk.RefundStatusSchema>>().toEqualTypeOf<sdk.RefundStatus>();
    expectTypeOf<
      z.output<typeof sdk.RefundAcceptedDataSchema>
    >().toEqualTypeOf<sdk.RefundAcceptedData>();
    expectTypeOf<
      z.output<typeof sdk.RefundStatusResponseSchema>
    >().toEqualTypeOf<sdk.RefundStatusResponse>();
    expectTypeOf<
      z.output<typeof sdk.RefundAcceptedResponseSchema>
    >().toEqualTypeOf<sdk.RefundAcceptedResponse>();
    expectTypeOf<
      z.output<typeof sdk.RefundExistingResponseSchema>
    >().toEqualTypeOf<sdk.RefundExistingResponse>();
    expectTypeOf<
      z.output<typeof sdk.RefundListResponseSchema>
    >().toEqualTypeOf<sdk.RefundListResponse>();
  });

  test('statement exports (spec §2.10, §4.4)', () => {
    expectTypeOf<z.output<typeof sdk.StatementExportSchema>>().toEqualTypeOf<sdk.StatementExport>();
    expectTypeOf<
      z.output<typeof sdk.StatementExportResponseSchema>
    >().toEqualTypeOf<sdk.StatementExportResponse>();
  });

  test('anticipations (spec §2.11, §2.13, §4.7, §4.8)', () => {
    expectTypeOf<z.output<typeof sdk.AnticipationSchema>>().toEqualTypeOf<sdk.Anticipation>();
    expectTypeOf<
      z.output<typeof sdk.AnticipationConfirmationSchema>
    >().toEqualTypeOf<sdk.AnticipationConfirmation>();
    expectTypeOf<
      z.output<typeof sdk.AnticipationPaginationSchema>
    >().toEqualTypeOf<sdk.AnticipationPagination>();
    expectTypeOf<
      z.output<typeof sdk.AnticipationListDataSchema>
    >().toEqualTypeOf<sdk.AnticipationListData>();
    expectTypeOf<
      z.output<typeof sdk.AnticipationListResponseSchema>
    >().toEqualTypeOf<sdk.AnticipationListResponse>();
  });

  test('fee-tier history (spec §2.12, §4.11)', () => {
    expectTypeOf<z.output<typeof sdk.FeeTierChangeSchema>>().toEqualTypeOf<sdk.FeeTierChange>();
    expectTypeOf<z.output<typeof sdk.FeeTierOperatorSchema>>().toEqualTypeOf<sdk.FeeTierOperator>();
    expectTypeOf<
      z.output<typeof sdk.FeeTierHistoryResponseSchema>
    >().toEqualTypeOf<sdk.FeeTierHistoryResponse>();
  });
});

describe('each params schema accepts exactly its named params type', () => {
  test('products.list and anticipations.list', () => {
    expectTypeOf<
      z.input<typeof sdk.ProductListParamsSchema>
    >().toEqualTypeOf<sdk.ProductListParams>();
    expectTypeOf<
      z.input<typeof sdk.AnticipationListParamsSchema>
    >().toEqualTypeOf<sdk.AnticipationListParams>();
  });

  test('offers.update', () => {
    expectTypeOf<
      z.input<typeof sdk.OfferUpdateParamsSchema>
    >().toEqualTypeOf<sdk.OfferUpdateParams>();
    expectTypeOf<
      z.input<typeof sdk.OfferSubscriptionParamsSchema>
    >().toEqualTypeOf<sdk.OfferSubscriptionParams>();
    expectTypeOf<
      z.input<typeof sdk.OfferFreightParamsSchema>
    >().toEqualTypeOf<sdk.OfferFreightParams>();
  });

  test('users.update', () => {
    // The type is the spec's two variants (§4.1); the schema takes either, and what plain
    // JavaScript may mix, leaving that to the service. Both variants name every field it knows,
    // each field of the type it checks.
    type ProfileBody = z.input<typeof sdk.UserUpdateParamsSchema>;
    expectTypeOf<keyof sdk.PersonProfileParams>().toEqualTypeOf<keyof ProfileBody>();
    expectTypeOf<keyof sdk.CompanyProfileParams>().toEqualTypeOf<keyof ProfileBody>();
    expectTypeOf<Required<sdk.PersonProfileParams>>().toExtend<Required<ProfileBody>>();
    expectTypeOf<Required<sdk.CompanyProfileParams>>().toExtend<Required<ProfileBody>>();
    expectTypeOf<z.input<typeof sdk.AddressParamsSchema>>().toEqualTypeOf<sdk.AddressParams>();
    expectTypeOf<z.input<typeof sdk.PhoneParamsSchema>>().toEqualTypeOf<sdk.PhoneParams>();
    expectTypeOf<
      z.input<typeof sdk.CompanyPartnerParamsSchema>
    >().toEqualTypeOf<sdk.CompanyPartnerParams>();
  });

  test('bankAccounts.update', () => {
    expectTypeOf<
      z.input<typeof sdk.BankAccountUpdateParamsSchema>
    >().toEqualTypeOf<sdk.BankAccountUpdateParams>();
  });

  test('refunds.request', () => {
    expectTypeOf<
      z.input<typeof sdk.RefundRequestParamsSchema>
    >().toEqualTypeOf<sdk.RefundRequestParams>();
  });

  test('statements.export', () => {
    expectTypeOf<
      z.input<typeof sdk.StatementExportParamsSchema>
    >().toEqualTypeOf<sdk.StatementExportParams>();
    expectTypeOf<
      z.input<typeof sdk.StatementExportFilterParamsSchema>
    >().toEqualTypeOf<sdk.StatementExportFilterParams>();
    expectTypeOf<z.input<typeof sdk.BetweenDatesSchema>>().toEqualTypeOf<sdk.BetweenDates>();
  });

  test('anticipations.confirm', () => {
    expectTypeOf<
      z.input<typeof sdk.AnticipationConfirmParamsSchema>
    >().toEqualTypeOf<sdk.AnticipationConfirmParams>();
  });
});

describe('the old names still compile, as deprecated aliases of the new ones', () => {
  test('params types', () => {
    expectTypeOf<sdk.UpdateOfferParams>().toEqualTypeOf<sdk.OfferUpdateParams>();
    expectTypeOf<sdk.UpdateUserParams>().toEqualTypeOf<sdk.UserUpdateParams>();
    expectTypeOf<sdk.UpdateBankAccountParams>().toEqualTypeOf<sdk.BankAccountUpdateParams>();
    expectTypeOf<sdk.RequestRefundParams>().toEqualTypeOf<sdk.RefundRequestParams>();
    expectTypeOf<sdk.ExportStatementParams>().toEqualTypeOf<sdk.StatementExportParams>();
    expectTypeOf<sdk.ConfirmAnticipationParams>().toEqualTypeOf<sdk.AnticipationConfirmParams>();
    expectTypeOf<sdk.ListAnticipationsParams>().toEqualTypeOf<sdk.AnticipationListParams>();
    expectTypeOf<sdk.ListProductsParams>().toEqualTypeOf<sdk.ProductListParams>();
  });
});
