/**
 * The value sets of spec §2, §4 and §6, as a partner's editor completes them. Written from the
 * spec's tables, not from the SDK's types:
 * - in an answer (§2, §6) every set stays open, the spec's values offered first and any other
 *   string accepted, since the response schemas let a value the service adds pass (a closed set
 *   there would be a type that lies, and closing one later is breaking: docs/versioning.md);
 * - in a request (§4) a set the spec lists completely is closed, so a value outside it is a
 *   compile error; one it gives as examples or "seen" stays open;
 * - a field the spec marks always present, or an identity, is required; any other answer field may
 *   be absent or `null`.
 */

import type {
  Anticipation,
  AnticipationConfirmation,
  AnticipationConfirmParams,
  BankAccount,
  BankAccountUpdateParams,
  CompanyProfileParams,
  FeeTierChange,
  Offer,
  OfferFreight,
  OfferFreightParams,
  OfferSubscription,
  OfferUpdateParams,
  Phone,
  PhoneParams,
  Product,
  Refund,
  RefundStatus,
  StatementExport,
  StatementExportParams,
  User,
} from 'partner-sdk';
import type {
  BankAccountEventPayload,
  SubscriptionCommissionItem,
  SubscriptionEndedPayload,
} from 'partner-sdk/webhooks';
import { describe, expectTypeOf, test } from 'vitest';

/** The literal values a string type offers for completion, without its `string & {}` catch-all. */
type Known<T> = T extends string ? (string extends T ? never : T) : never;
/** A field's values, without the `null` and absence every optional answer field allows. */
type Values<T> = Exclude<T, null | undefined>;
/** A string no table of the spec names. */
type Unnamed = 'a-value-the-spec-does-not-name';

describe('answers: open sets offer the spec’s values (§2, §3, §6)', () => {
  test('user, address and phone (§2.1, §2.3)', () => {
    expectTypeOf<Known<User['type']>>().toEqualTypeOf<'person' | 'company'>();
    expectTypeOf<Unnamed>().toExtend<User['type']>();
    expectTypeOf<Known<Values<User['company_type']>>>().toEqualTypeOf<
      'mei' | 'simple' | 'presumed' | 'real'
    >();
    expectTypeOf<Unnamed>().toExtend<Values<User['company_type']>>();
    // "allowed values: not shown": a string, always present.
    expectTypeOf<User['status']>().toEqualTypeOf<string>();
    expectTypeOf<Known<Values<Phone['type']>>>().toEqualTypeOf<
      'whatsapp' | 'mobile' | 'landline' | 'work'
    >();
  });

  test('bank account (§2.4, §3)', () => {
    expectTypeOf<Known<Values<BankAccount['receiver_type']>>>().toEqualTypeOf<'pix' | 'bank'>();
    expectTypeOf<Known<Values<BankAccount['status']>>>().toEqualTypeOf<
      'approved' | 'pending' | 'reproved'
    >();
    expectTypeOf<Unnamed>().toExtend<Values<BankAccount['status']>>();
    expectTypeOf<BankAccount['pix_key']>().toEqualTypeOf<string | null | undefined>();
  });

  test('product (§2.5, §3)', () => {
    expectTypeOf<Known<Values<Product['type']>>>().toEqualTypeOf<'course' | 'ebook' | 'physical'>();
    expectTypeOf<Known<Values<Product['status']>>>().toEqualTypeOf<
      'draft' | 'pre-approved' | 'approved' | 'pending' | 'pending-correction' | 'reproved'
    >();
    expectTypeOf<Known<Values<Product['affiliate_commission_type']>>>().toEqualTypeOf<
      'first' | 'last' | 'multi'
    >();
    expectTypeOf<Unnamed>().toExtend<Values<Product['status']>>();
    expectTypeOf<Product['hash']>().toEqualTypeOf<string>();
    expectTypeOf<Product['refund_deadline']>().toEqualTypeOf<number | null | undefined>();
  });

  test('offer, its subscription and freight (§2.6 to §2.8)', () => {
    expectTypeOf<Known<Values<Offer['type_of_charge']>>>().toEqualTypeOf<
      'one-time' | 'recurring'
    >();
    expectTypeOf<Unnamed>().toExtend<Values<Offer['type_of_charge']>>();
    expectTypeOf<Known<Values<OfferSubscription['interval']>>>().toEqualTypeOf<'weekly'>();
    expectTypeOf<Known<Values<OfferFreight['type']>>>().toEqualTypeOf<'shipping_company'>();
    expectTypeOf<Offer['code']>().toEqualTypeOf<string>();
    expectTypeOf<Offer['credit_card_installments_options']>().toEqualTypeOf<
      number[] | null | undefined
    >();
    // Accepted on update, never returned (§2.6).
    expectTypeOf<Offer>().not.toHaveProperty('allow_pix_recurring');
    expectTypeOf<Offer>().not.toHaveProperty('allow_smart_installment');
  });

  test('refund, export and anticipation (§2.9 to §2.11)', () => {
    expectTypeOf<Known<Values<Refund['status']>>>().toEqualTypeOf<
      'requested' | 'success' | 'completed' | 'failed'
    >();
    expectTypeOf<Known<RefundStatus['status']>>().toEqualTypeOf<
      'requested' | 'success' | 'completed' | 'failed'
    >();
    expectTypeOf<Unnamed>().toExtend<RefundStatus['status']>();
    expectTypeOf<Known<Values<StatementExport['status']>>>().toEqualTypeOf<'processing'>();
    expectTypeOf<Unnamed>().toExtend<Values<StatementExport['status']>>();
    // `null` while processing (§2.10).
    expectTypeOf<StatementExport['url']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Known<Values<Anticipation['status']>>>().toEqualTypeOf<'approved'>();
    expectTypeOf<Known<Values<AnticipationConfirmation['status']>>>().toEqualTypeOf<'approved'>();
    // Always sent, `null` for an anticipation made outside the API (§2.11).
    expectTypeOf<Anticipation['hash']>().toEqualTypeOf<string | null>();
  });

  test('fee-tier history (§2.12)', () => {
    expectTypeOf<Known<Values<FeeTierChange['action']>>>().toEqualTypeOf<
      'create' | 'update' | 'delete'
    >();
    expectTypeOf<Unnamed>().toExtend<Values<FeeTierChange['action']>>();
  });

  test('webhook payloads (§6.1, §6.2)', () => {
    expectTypeOf<Known<Values<SubscriptionEndedPayload['end_reason']>>>().toEqualTypeOf<
      'completed' | 'delinquency'
    >();
    expectTypeOf<Unnamed>().toExtend<Values<SubscriptionEndedPayload['end_reason']>>();
    expectTypeOf<Known<Values<SubscriptionEndedPayload['status']>>>().toEqualTypeOf<'ended'>();
    expectTypeOf<Known<Values<SubscriptionCommissionItem['type']>>>().toEqualTypeOf<
      'producer' | 'affiliate'
    >();
    // §6.2: values beyond `pix` and `bank` arrive.
    expectTypeOf<Known<Values<BankAccountEventPayload['receiver_type']>>>().toEqualTypeOf<
      'pix' | 'bank'
    >();
    expectTypeOf<Unnamed>().toExtend<Values<BankAccountEventPayload['receiver_type']>>();
    expectTypeOf<Known<Values<BankAccountEventPayload['status']>>>().toEqualTypeOf<
      'approved' | 'pending' | 'reproved'
    >();
  });
});

describe('requests: a set the spec lists completely is closed (§4)', () => {
  test('offer update (§4.6)', () => {
    expectTypeOf<Values<OfferUpdateParams['type_of_charge']>>().toEqualTypeOf<
      'one-time' | 'recurring'
    >();
    expectTypeOf<Values<OfferUpdateParams['pix_recurring_frequency']>>().toEqualTypeOf<
      'weekly' | 'biweekly' | 'monthly' | 'quarterly' | 'biannual' | 'annual'
    >();
    expectTypeOf<
      Values<OfferUpdateParams['pix_recurring_authorization_type']>
    >().toEqualTypeOf<'monthly_auth_monthly_retry'>();
    // §2.8 shows one value seen, not the set.
    expectTypeOf<Known<Values<OfferFreightParams['type']>>>().toEqualTypeOf<'shipping_company'>();
    expectTypeOf<Unnamed>().toExtend<Values<OfferFreightParams['type']>>();
  });

  test('profile, bank account, anticipation, export (§4.1, §4.4, §4.5, §4.7)', () => {
    expectTypeOf<CompanyProfileParams['company_type']>().toEqualTypeOf<
      'mei' | 'simple' | 'presumed' | 'real'
    >();
    expectTypeOf<Values<BankAccountUpdateParams['receiver_type']>>().toEqualTypeOf<
      'pix' | 'bank'
    >();
    expectTypeOf<AnticipationConfirmParams['scenario']>().toEqualTypeOf<'above' | 'below'>();
    // "for example `csv` or `pdf`" and "kinds seen": open.
    expectTypeOf<Known<Values<StatementExportParams['format']>>>().toEqualTypeOf<'csv' | 'pdf'>();
    expectTypeOf<Unnamed>().toExtend<Values<StatementExportParams['format']>>();
    expectTypeOf<Known<PhoneParams['type']>>().toEqualTypeOf<
      'whatsapp' | 'mobile' | 'landline' | 'work'
    >();
  });
});
