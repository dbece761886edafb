/**
 * Offers of a product: spec §2.6 to §2.8 (the resource, its subscription and freight settings) and
 * §4.6 (`PUT /products/{product_hash}/offers/{offer_code}`).
 *
 * @module
 */

import * as z from 'zod/mini';
import {
  cents,
  crossFieldRule,
  decimal,
  fieldIssue,
  flag,
  integer,
  listOf,
  oneOf,
  optional,
  paramsObject,
  text,
} from './request-rules';
import {
  BOOLEAN,
  INTEGER,
  maybe,
  NUMBER,
  type OpenEnum,
  openEnum,
  responseObject,
  STRING,
} from './response-fields';

// ---------------------------------------------------------------------------------------------
// Types: the documentation a partner reads (hover, reference). The schemas below are proven to
// infer exactly these types (test/types/schemas-match.test-d.ts).
// ---------------------------------------------------------------------------------------------

/** How an offer charges (spec §2.6, §4.6): `one-time` (a single payment) or `recurring` (a subscription). */
export type ChargeType = 'one-time' | 'recurring';

/**
 * How often automatic PIX debits a recurring offer (spec §4.6): `weekly`, `biweekly`, `monthly`,
 * `quarterly`, `biannual` (twice a year) or `annual`.
 */
export type PixRecurringFrequency =
  | 'weekly'
  | 'biweekly'
  | 'monthly'
  | 'quarterly'
  | 'biannual'
  | 'annual';

/** Subscription settings of a recurring offer as returned (spec §2.7). Bounds: not shown. */
export interface OfferSubscription {
  /**
   * Charge interval; only in responses. One value seen: `weekly`; the full set: not shown (any
   * string passes). Absent or `null` when not sent. Spec §2.7.
   */
  interval?: OpenEnum<'weekly'> | null;
  /** Trial period in days (integer). Absent or `null` when there is none. Spec §2.7. */
  trial_days?: number | null;
  /** Trial-days text flag (a boolean; its meaning: not shown). Absent or `null` when not set. Spec §2.7. */
  trial_days_text?: boolean | null;
  /** Price of the first charge (integer; the unit is not stated, cents like every price). Absent or `null` when not set. Spec §2.7. */
  first_charge_price?: number | null;
  /** Whether the subscription is an extension. Absent or `null` when not set. Spec §2.7. */
  is_extension?: boolean | null;
  /** Length of the extension (integer). Absent or `null` when not set. Spec §2.7. */
  extension_length?: number | null;
  /** Most charges of the subscription (integer); reaching it ends the subscription (event `subscription_ended`). Absent or `null` when not set. Spec §2.7, §6.1. */
  max_charges?: number | null;
  /** Most attempts per charge (integer). Absent or `null` when not set. Spec §2.7. */
  max_charges_attempts?: number | null;
}

/** Freight settings of an offer of a physical product as returned (spec §2.8). Units and bounds: not shown. */
export interface OfferFreight {
  /** Freight type. One value seen: `shipping_company`; the full set: not shown. Absent or `null` when not set. Spec §2.8. */
  type?: OpenEnum<'shipping_company'> | null;
  /** Days to prepare the shipment (integer). Absent or `null` when not set. Spec §2.8. */
  preparation_day?: number | null;
  /** First day of the delivery window (integer). Absent or `null` when not set. Spec §2.8. */
  start_day?: number | null;
  /** Last day of the delivery window (integer). Absent or `null` when not set. Spec §2.8. */
  end_day?: number | null;
  /** Fixed freight price (a number; unit: not shown). Absent or `null` when not set. Spec §2.8. */
  fixed_price?: number | null;
  /** States (two-letter abbreviations) with free freight. Absent or `null` when not set. Spec §2.8. */
  free_states?: string[] | null;
  /** States (two-letter abbreviations) not delivered to. Absent or `null` when not set. Spec §2.8. */
  blocked_states?: string[] | null;
  /** Whether PAC (the postal service's standard shipping) is offered. Absent or `null` when not set. Spec §2.8. */
  is_pac?: boolean | null;
  /** Whether SEDEX (the postal service's express shipping) is offered. Absent or `null` when not set. Spec §2.8. */
  is_sedex?: boolean | null;
  /** PAC price used when the carrier's quote is unavailable (a number). Absent or `null` when not set. Spec §2.8. */
  pac_fallback_price?: number | null;
  /** Last delivery day used with the PAC fallback price (integer). Absent or `null` when not set. Spec §2.8. */
  pac_fallback_end_day?: number | null;
  /** SEDEX price used when the carrier's quote is unavailable (a number). Absent or `null` when not set. Spec §2.8. */
  sedex_fallback_price?: number | null;
  /** Last delivery day used with the SEDEX fallback price (integer). Absent or `null` when not set. Spec §2.8. */
  sedex_fallback_end_day?: number | null;
  /** Zip code (a string; whose, and its format: not shown, presumably where the shipment leaves from). Absent or `null` when not set. Spec §2.8. */
  zip_code?: string | null;
  /** Package weight (a number; unit: not shown). Absent or `null` when not set. Spec §2.8. */
  weight?: number | null;
  /** Package length (a number; unit: not shown). Absent or `null` when not set. Spec §2.8. */
  length?: number | null;
  /** Package width (a number; unit: not shown). Absent or `null` when not set. Spec §2.8. */
  width?: number | null;
  /** Package height (a number; unit: not shown). Absent or `null` when not set. Spec §2.8. */
  height?: number | null;
}

/**
 * An offer as `offers.update` returns it (spec §2.6). `code` is always there; every other field may
 * be absent or `null` (a Laravel service sends `null` for empty columns). The automatic-PIX settings (`allow_pix_recurring`,
 * `pix_recurring_frequency`, `pix_recurring_authorization_type`), `custom_commission` and
 * `allow_smart_installment` are accepted on update but never returned.
 */
export interface Offer {
  /** Unique offer code: its identity, used in `offers.update`. Always present. Spec §2.6. */
  code: string;
  /** Offer name. Absent or `null` when empty. Spec §2.6. */
  name?: string | null;
  /** `one-time` (single payment) or `recurring` (subscription). Open: a new value passes. Absent or `null` when not sent. Spec §2.6. */
  type_of_charge?: OpenEnum<ChargeType> | null;
  /** Price in cents (integer, 0 to 99999999); 0 makes the offer free (`is_free`). Absent or `null` when not sent. Spec §2.6, §8. */
  price?: number | null;
  /** Whether credit card is accepted. Absent or `null` when not sent. Spec §2.6. */
  allow_credit_card?: boolean | null;
  /** Installment counts offered on credit card, each an integer from 1 to 36. Absent or `null` when not set. Spec §2.6, §8. */
  credit_card_installments_options?: number[] | null;
  /** Whether single-payment PIX is accepted. Absent or `null` when not sent. Spec §2.6. */
  allow_pix?: boolean | null;
  /** Whether bank slip (boleto) is accepted. Absent or `null` when not sent. Spec §2.6. */
  allow_bank_slip?: boolean | null;
  /** Creation time, `YYYY-MM-DD HH:mm:ss` (read it with `parseTimestamp`). Absent or `null` when not sent. Spec §2.6. */
  created_at?: string | null;
  /** Last update time, `YYYY-MM-DD HH:mm:ss` (read it with `parseTimestamp`). Absent or `null` when not sent. Spec §2.6. */
  updated_at?: string | null;
  /** Strike-through price shown next to `price`, in cents (integer). Absent or `null` when not set. Spec §2.6. */
  fake_initial_price?: number | null;
  /** Stock of a physical product, an integer from 1 to 100. Absent or `null` when not set (courses, e-books). Spec §2.6, §8. */
  quantity_items?: number | null;
  /** Whether bank slip in installments is allowed (non-recurring offers only). Absent or `null` when not sent. Spec §2.6. */
  allow_bank_slip_installments?: boolean | null;
  /** Days until the bank slip is due, an integer from 1 to 7. Absent or `null` when not set. Spec §2.6, §8. */
  bank_slip_days_due?: number | null;
  /** Most bank-slip installments, an integer from 1 to 12. Absent or `null` when not set. Spec §2.6, §8. */
  bank_slip_installments_limit?: number | null;
  /** Whether affiliates may sell the offer. Absent or `null` when not sent. Spec §2.6. */
  allow_affiliates?: boolean | null;
  /** Affiliate commission in percent, 1 to 80. Absent or `null` when not set. Spec §2.6, §8. */
  affiliates_percentage?: number | null;
  /** Affiliate commission on subscription renewals in percent, 1 to 80. Absent or `null` when not set. Spec §2.6, §8. */
  affiliates_subscription_percentage?: number | null;
  /** Whether affiliates earn commission only on the first installment. Absent or `null` when not set. Spec §2.6. */
  commission_only_first_installment?: boolean | null;
  /** Whether the producer pays the installment interest (the buyer pays none). Absent or `null` when not set. Spec §2.6. */
  producer_pays_interest?: boolean | null;
  /** `true` when the offer is free (`price` = 0). Absent or `null` when not sent. Spec §2.6. */
  is_free?: boolean | null;
  /**
   * `true`: the buyer pays the fixed per-transaction fee (2.49 BRL, added to the checkout total);
   * `false`: the producer absorbs it. Absent or `null` when not sent. Spec §2.6, §4.6.
   */
  transfer_fixed_fee_to_buyer?: boolean | null;
  /** Subscription settings of a recurring offer. Absent or `null` for one-time offers. Spec §2.7. */
  subscription?: OfferSubscription | null;
  /** Freight settings of a physical product's offer. Absent or `null` otherwise. Spec §2.8. */
  freight?: OfferFreight | null;
}

/** Subscription settings sent with `offers.update` (spec §2.7, without `interval`). Bounds: not shown. */
export interface OfferSubscriptionParams {
  /** Trial period in days (integer). Spec §2.7. */
  trial_days?: number;
  /** Trial-days text flag (its meaning: not shown). Spec §2.7. */
  trial_days_text?: boolean;
  /** Price of the first charge (integer, cents like every price). Spec §2.7. */
  first_charge_price?: number;
  /** Whether the subscription is an extension. Spec §2.7. */
  is_extension?: boolean;
  /** Length of the extension (integer). Spec §2.7. */
  extension_length?: number;
  /** Most charges of the subscription (integer); reaching it ends the subscription. Spec §2.7, §6.1. */
  max_charges?: number;
  /** Most attempts per charge (integer). Spec §2.7. */
  max_charges_attempts?: number;
}

/** Freight settings sent with `offers.update` (spec §2.8); required by the service for physical products. Units and bounds: not shown. */
export interface OfferFreightParams {
  /** Freight type. One value seen: `shipping_company`; the full set: not shown. Spec §2.8. */
  type?: OpenEnum<'shipping_company'>;
  /** Days to prepare the shipment (integer). Spec §2.8. */
  preparation_day?: number;
  /** First day of the delivery window (integer). Spec §2.8. */
  start_day?: number;
  /** Last day of the delivery window (integer). Spec §2.8. */
  end_day?: number;
  /** Fixed freight price (a number; unit: not shown). Spec §2.8. */
  fixed_price?: number;
  /** States (two-letter abbreviations) with free freight. Spec §2.8. */
  free_states?: string[];
  /** States (two-letter abbreviations) not delivered to. Spec §2.8. */
  blocked_states?: string[];
  /** Whether PAC (the postal service's standard shipping) is offered. Spec §2.8. */
  is_pac?: boolean;
  /** Whether SEDEX (the postal service's express shipping) is offered. Spec §2.8. */
  is_sedex?: boolean;
  /** PAC price used when the carrier's quote is unavailable (a number). Spec §2.8. */
  pac_fallback_price?: number;
  /** Last delivery day used with the PAC fallback price (integer). Spec §2.8. */
  pac_fallback_end_day?: number;
  /** SEDEX price used when the carrier's quote is unavailable (a number). Spec §2.8. */
  sedex_fallback_price?: number;
  /** Last delivery day used with the SEDEX fallback price (integer). Spec §2.8. */
  sedex_fallback_end_day?: number;
  /** Zip code (a string; whose, and its format: not shown, presumably where the shipment leaves from). Spec §2.8. */
  zip_code?: string;
  /** Package weight (a number; unit: not shown). Spec §2.8. */
  weight?: number;
  /** Package length (a number; unit: not shown). Spec §2.8. */
  length?: number;
  /** Package width (a number; unit: not shown). Spec §2.8. */
  width?: number;
  /** Package height (a number; unit: not shown). Spec §2.8. */
  height?: number;
}

/**
 * The body of `offers.update` (`PUT /products/{product_hash}/offers/{offer_code}`, spec §4.6).
 * Every field is optional: the spec does not say which are required on update.
 *
 * Checked before sending: every documented limit, and the rules whose inputs are all in the body
 * (`allow_pix_recurring: true` needs `pix_recurring_frequency` and
 * `pix_recurring_authorization_type`; with `type_of_charge: 'one-time'` the recurring-only fields
 * are refused; with `type_of_charge: 'recurring'` `allow_bank_slip_installments: true` is refused).
 * Rules that depend on the stored offer or product (its type of charge when not sent, `freight` and
 * `quantity_items` for physical products) are the service's to check.
 */
export interface OfferUpdateParams {
  /** Offer name, at most 191 characters. Spec §4.6. */
  name?: string;
  /** Price in cents: an integer from 0 to 99999999 (0 makes the offer free). Spec §4.6, §8. */
  price?: number;
  /** Strike-through price shown next to `price`, in cents (integer). Spec §4.6. */
  fake_initial_price?: number;
  /** `one-time` (single payment) or `recurring` (subscription). Spec §4.6. */
  type_of_charge?: ChargeType;
  /** Accept single-payment PIX. Spec §4.6. */
  allow_pix?: boolean;
  /** Accept bank slip (boleto). Spec §4.6. */
  allow_bank_slip?: boolean;
  /** Accept credit card. Spec §4.6. */
  allow_credit_card?: boolean;
  /** Stock: an integer from 1 to 100. Required by the service for physical products only; optional for `course` and `ebook`. Spec §4.6, §8. */
  quantity_items?: number;
  /**
   * Automatic PIX (recurring debit); recurring offers only, needed to sell the offer with
   * `pix_recurring` at checkout. When `true`, `pix_recurring_frequency` and
   * `pix_recurring_authorization_type` are required. While the operator has not enabled automatic
   * PIX for the producer, the service saves `false` without an error. Spec §4.6 rules 1 to 4.
   */
  allow_pix_recurring?: boolean;
  /** How often automatic PIX debits: `weekly`, `biweekly`, `monthly`, `quarterly`, `biannual` or `annual`. Required when `allow_pix_recurring` is `true`. Spec §4.6. */
  pix_recurring_frequency?: PixRecurringFrequency;
  /** Automatic-PIX authorization type; the only value is `monthly_auth_monthly_retry`. Required when `allow_pix_recurring` is `true`. Spec §4.6. */
  pix_recurring_authorization_type?: 'monthly_auth_monthly_retry';
  /** Allow bank slip in installments; non-recurring offers only. Spec §4.6. */
  allow_bank_slip_installments?: boolean;
  /** Days until the bank slip is due: an integer from 1 to 7. Spec §4.6, §8. */
  bank_slip_days_due?: number;
  /** Most bank-slip installments: an integer from 1 to 12. Spec §4.6, §8. */
  bank_slip_installments_limit?: number;
  /** Installment counts offered on credit card, each an integer from 1 to 36 (e.g. `[1, 3, 6, 12]`). Spec §4.6, §8. */
  credit_card_installments_options?: number[];
  /** Let affiliates sell the offer. Spec §4.6. */
  allow_affiliates?: boolean;
  /** Affiliate commission in percent, 1 to 80 (fractions allowed). Spec §2.6, §8. */
  affiliates_percentage?: number;
  /** The offer uses a commission different from the product's default. Spec §4.6. */
  custom_commission?: boolean;
  /** Affiliates earn commission only on the first installment; recurring offers only. Spec §4.6. */
  commission_only_first_installment?: boolean;
  /** Affiliate commission on subscription renewals in percent, 1 to 80; recurring offers only. Spec §4.6, §8. */
  affiliates_subscription_percentage?: number;
  /**
   * `true`: the buyer pays the fixed fee of 2.49 (BRL), added to the checkout total; `false`: the
   * producer absorbs it. The service defaults to `true` when it is not given on creation. Spec §4.6.
   */
  transfer_fixed_fee_to_buyer?: boolean;
  /**
   * Smart installments: when a card is declined for insufficient funds, an installment plan is
   * created automatically (no interest, equal split, at most 12 installments, at least 5 BRL each).
   * Spec §4.6, §8.
   */
  allow_smart_installment?: boolean;
  /** The producer pays the installment interest (the buyer pays none). Spec §4.6. */
  producer_pays_interest?: boolean;
  /** Subscription settings of a `recurring` offer (spec §2.7, without `interval`). Spec §4.6. */
  subscription?: OfferSubscriptionParams;
  /** Freight settings; required by the service for physical products (spec §2.8). Spec §4.6. */
  freight?: OfferFreightParams;
}

/**
 * The body of `offers.update`.
 *
 * @deprecated Renamed {@link OfferUpdateParams}.
 */
export type UpdateOfferParams = OfferUpdateParams;

// ---------------------------------------------------------------------------------------------
// Schemas: the run-time truth (field notes: see the types above)
// ---------------------------------------------------------------------------------------------

/** Schema of {@link OfferSubscription}. */
export const OfferSubscriptionSchema = responseObject({
  interval: maybe(openEnum(['weekly'])),
  trial_days: maybe(INTEGER),
  trial_days_text: maybe(BOOLEAN),
  first_charge_price: maybe(INTEGER),
  is_extension: maybe(BOOLEAN),
  extension_length: maybe(INTEGER),
  max_charges: maybe(INTEGER),
  max_charges_attempts: maybe(INTEGER),
});

/** Schema of {@link OfferFreight}. */
export const OfferFreightSchema = responseObject({
  type: maybe(openEnum(['shipping_company'])),
  preparation_day: maybe(INTEGER),
  start_day: maybe(INTEGER),
  end_day: maybe(INTEGER),
  fixed_price: maybe(NUMBER),
  free_states: maybe(z.array(STRING)),
  blocked_states: maybe(z.array(STRING)),
  is_pac: maybe(BOOLEAN),
  is_sedex: maybe(BOOLEAN),
  pac_fallback_price: maybe(NUMBER),
  pac_fallback_end_day: maybe(INTEGER),
  sedex_fallback_price: maybe(NUMBER),
  sedex_fallback_end_day: maybe(INTEGER),
  zip_code: maybe(STRING),
  weight: maybe(NUMBER),
  length: maybe(NUMBER),
  width: maybe(NUMBER),
  height: maybe(NUMBER),
});

/** Schema of {@link Offer}: only `code` is required. */
export const OfferSchema = responseObject({
  code: STRING,
  name: maybe(STRING),
  type_of_charge: maybe(openEnum(['one-time', 'recurring'])),
  price: maybe(INTEGER),
  allow_credit_card: maybe(BOOLEAN),
  credit_card_installments_options: maybe(z.array(INTEGER)),
  allow_pix: maybe(BOOLEAN),
  allow_bank_slip: maybe(BOOLEAN),
  created_at: maybe(STRING),
  updated_at: maybe(STRING),
  fake_initial_price: maybe(INTEGER),
  quantity_items: maybe(INTEGER),
  allow_bank_slip_installments: maybe(BOOLEAN),
  bank_slip_days_due: maybe(INTEGER),
  bank_slip_installments_limit: maybe(INTEGER),
  allow_affiliates: maybe(BOOLEAN),
  affiliates_percentage: maybe(NUMBER),
  affiliates_subscription_percentage: maybe(NUMBER),
  commission_only_first_installment: maybe(BOOLEAN),
  producer_pays_interest: maybe(BOOLEAN),
  is_free: maybe(BOOLEAN),
  transfer_fixed_fee_to_buyer: maybe(BOOLEAN),
  subscription: maybe(OfferSubscriptionSchema),
  freight: maybe(OfferFreightSchema),
});

/** Schema of {@link OfferSubscriptionParams}. */
export const OfferSubscriptionParamsSchema = paramsObject({
  trial_days: optional(integer()),
  trial_days_text: optional(flag()),
  first_charge_price: optional(cents()),
  is_extension: optional(flag()),
  extension_length: optional(integer()),
  max_charges: optional(integer()),
  max_charges_attempts: optional(integer()),
});

/** Schema of {@link OfferFreightParams}. */
export const OfferFreightParamsSchema = paramsObject({
  type: optional(
    text() as unknown as z.ZodMiniType<OpenEnum<'shipping_company'>, OpenEnum<'shipping_company'>>,
  ),
  preparation_day: optional(integer()),
  start_day: optional(integer()),
  end_day: optional(integer()),
  fixed_price: optional(decimal()),
  free_states: optional(listOf(text(), 'strings')),
  blocked_states: optional(listOf(text(), 'strings')),
  is_pac: optional(flag()),
  is_sedex: optional(flag()),
  pac_fallback_price: optional(decimal()),
  pac_fallback_end_day: optional(integer()),
  sedex_fallback_price: optional(decimal()),
  sedex_fallback_end_day: optional(integer()),
  zip_code: optional(text()),
  weight: optional(decimal()),
  length: optional(decimal()),
  width: optional(decimal()),
  height: optional(decimal()),
});

/** Fields of an offer update that only a recurring offer takes (spec §4.6). */
const RECURRING_ONLY = [
  'commission_only_first_installment',
  'affiliates_subscription_percentage',
  'subscription',
  'allow_pix_recurring',
  'pix_recurring_frequency',
  'pix_recurring_authorization_type',
] as const;

/** Schema of {@link OfferUpdateParams}: every documented limit, and the cross-field rules it lists. */
export const OfferUpdateParamsSchema = paramsObject({
  name: optional(text({ max: 191 })),
  price: optional(cents({ min: 0, max: 99_999_999 })),
  fake_initial_price: optional(cents()),
  type_of_charge: optional(oneOf(['one-time', 'recurring'])),
  allow_pix: optional(flag()),
  allow_bank_slip: optional(flag()),
  allow_credit_card: optional(flag()),
  quantity_items: optional(integer({ min: 1, max: 100 })),
  allow_pix_recurring: optional(flag()),
  pix_recurring_frequency: optional(
    oneOf(['weekly', 'biweekly', 'monthly', 'quarterly', 'biannual', 'annual']),
  ),
  pix_recurring_authorization_type: optional(oneOf(['monthly_auth_monthly_retry'])),
  allow_bank_slip_installments: optional(flag()),
  bank_slip_days_due: optional(integer({ min: 1, max: 7 })),
  bank_slip_installments_limit: optional(integer({ min: 1, max: 12 })),
  credit_card_installments_options: optional(listOf(integer({ min: 1, max: 36 }), 'integers')),
  allow_affiliates: optional(flag()),
  affiliates_percentage: optional(decimal({ min: 1, max: 80 })),
  custom_commission: optional(flag()),
  commission_only_first_installment: optional(flag()),
  affiliates_subscription_percentage: optional(decimal({ min: 1, max: 80 })),
  transfer_fixed_fee_to_buyer: optional(flag()),
  allow_smart_installment: optional(flag()),
  producer_pays_interest: optional(flag()),
  subscription: optional(OfferSubscriptionParamsSchema),
  freight: optional(OfferFreightParamsSchema),
}).check(
  crossFieldRule((payload) => {
    const value = payload.value;
    if (value.allow_pix_recurring === true) {
      for (const field of ['pix_recurring_frequency', 'pix_recurring_authorization_type']) {
        if (value[field] === undefined) {
          fieldIssue(payload, [field], 'Required when allow_pix_recurring is true');
        }
      }
    }
    if (value.type_of_charge === 'one-time') {
      for (const field of RECURRING_ONLY) {
        const sent = value[field];
        if (sent === undefined || sent === false) continue;
        fieldIssue(
          payload,
          [field],
          'Only for recurring offers (type_of_charge is one-time)',
          sent,
        );
      }
    } else if (value.type_of_charge === 'recurring' && value.allow_bank_slip_installments) {
      fieldIssue(
        payload,
        ['allow_bank_slip_installments'],
        'Only for non-recurring offers (type_of_charge is recurring)',
        value.allow_bank_slip_installments,
      );
    }
  }),
);
