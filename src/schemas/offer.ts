/**
 * Offers of a product: spec §2.6 to §2.8 (the resource, its subscription and freight settings) and
 * §4.6 (`PUT /products/{product_hash}/offers/{offer_code}`).
 *
 * @module
 */

import * as z from 'zod/mini';
import {
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
import { BOOLEAN, maybe, NUMBER, openEnum, STRING } from './response-fields';

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/** Subscription settings of a recurring offer (spec §2.7). Bounds: not shown. */
export const OfferSubscriptionSchema = z.looseObject({
  /** Charge interval; returned in responses only. One value seen: `weekly`; the set: not shown. */
  interval: maybe(openEnum(['weekly'])),
  /** Trial period in days. */
  trial_days: maybe(NUMBER),
  /** Trial days text flag. */
  trial_days_text: maybe(BOOLEAN),
  /** Price of the first charge. */
  first_charge_price: maybe(NUMBER),
  /** Whether this is an extension. */
  is_extension: maybe(BOOLEAN),
  /** Extension length. */
  extension_length: maybe(NUMBER),
  /** Maximum number of charges. */
  max_charges: maybe(NUMBER),
  /** Maximum number of charge attempts. */
  max_charges_attempts: maybe(NUMBER),
});
/** Subscription settings of a recurring offer (spec §2.7). */
export type OfferSubscription = z.infer<typeof OfferSubscriptionSchema>;

/** Freight settings of an offer of a physical product (spec §2.8). Units and bounds: not shown. */
export const OfferFreightSchema = z.looseObject({
  /** Freight type; one value seen: `shipping_company`. */
  type: maybe(openEnum(['shipping_company'])),
  /** Preparation days. */
  preparation_day: maybe(NUMBER),
  /** First delivery day. */
  start_day: maybe(NUMBER),
  /** Last delivery day. */
  end_day: maybe(NUMBER),
  /** Fixed freight price. */
  fixed_price: maybe(NUMBER),
  /** States with free freight. */
  free_states: maybe(z.array(STRING)),
  /** States not delivered to. */
  blocked_states: maybe(z.array(STRING)),
  /** PAC shipping enabled. */
  is_pac: maybe(BOOLEAN),
  /** SEDEX shipping enabled. */
  is_sedex: maybe(BOOLEAN),
  /** PAC fallback price. */
  pac_fallback_price: maybe(NUMBER),
  /** PAC fallback last delivery day. */
  pac_fallback_end_day: maybe(NUMBER),
  /** SEDEX fallback price. */
  sedex_fallback_price: maybe(NUMBER),
  /** SEDEX fallback last delivery day. */
  sedex_fallback_end_day: maybe(NUMBER),
  /** Origin zip code. */
  zip_code: maybe(STRING),
  /** Package weight. */
  weight: maybe(NUMBER),
  /** Package length. */
  length: maybe(NUMBER),
  /** Package width. */
  width: maybe(NUMBER),
  /** Package height. */
  height: maybe(NUMBER),
});
/** Freight settings of an offer (spec §2.8). */
export type OfferFreight = z.infer<typeof OfferFreightSchema>;

/**
 * An offer as returned by its update (spec §2.6). Only `code` is required. The automatic-PIX
 * settings, `custom_commission` and `allow_smart_installment` are accepted on update but not
 * returned.
 */
export const OfferSchema = z.looseObject({
  /** Unique offer code. */
  code: STRING,
  /** Offer name. */
  name: maybe(STRING),
  /** `one-time` or `recurring`. */
  type_of_charge: maybe(openEnum(['one-time', 'recurring'])),
  /** Price in cents. */
  price: maybe(NUMBER),
  /** Credit card accepted. */
  allow_credit_card: maybe(BOOLEAN),
  /** Installment counts offered on credit card, each 1 to 36. */
  credit_card_installments_options: maybe(z.array(NUMBER)),
  /** Single-payment PIX accepted. */
  allow_pix: maybe(BOOLEAN),
  /** Bank slip accepted. */
  allow_bank_slip: maybe(BOOLEAN),
  /** Creation time, `YYYY-MM-DD HH:mm:ss` (read it with `parseTimestamp`). */
  created_at: maybe(STRING),
  /** Last update time, `YYYY-MM-DD HH:mm:ss` (read it with `parseTimestamp`). */
  updated_at: maybe(STRING),
  /** Strike-through price in cents. */
  fake_initial_price: maybe(NUMBER),
  /** Stock, 1 to 100, physical products. */
  quantity_items: maybe(NUMBER),
  /** Bank slip in installments allowed. */
  allow_bank_slip_installments: maybe(BOOLEAN),
  /** Days until the bank slip is due, 1 to 7. */
  bank_slip_days_due: maybe(NUMBER),
  /** Most bank slip installments, 1 to 12. */
  bank_slip_installments_limit: maybe(NUMBER),
  /** Affiliates allowed. */
  allow_affiliates: maybe(BOOLEAN),
  /** Affiliate commission, 1 to 80. */
  affiliates_percentage: maybe(NUMBER),
  /** Affiliate commission on renewals, 1 to 80. */
  affiliates_subscription_percentage: maybe(NUMBER),
  /** Commission only on the first installment. */
  commission_only_first_installment: maybe(BOOLEAN),
  /** The producer pays the installment interest. */
  producer_pays_interest: maybe(BOOLEAN),
  /** True when price = 0. */
  is_free: maybe(BOOLEAN),
  /** Whether the fixed per-transaction fee is passed to the buyer. */
  transfer_fixed_fee_to_buyer: maybe(BOOLEAN),
  /** Subscription settings (spec §2.7). */
  subscription: maybe(OfferSubscriptionSchema),
  /** Freight settings (spec §2.8). */
  freight: maybe(OfferFreightSchema),
});
/** An offer as returned by its update (spec §2.6). */
export type Offer = z.infer<typeof OfferSchema>;

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** Subscription settings sent with an offer update (spec §2.7, without `interval`). Bounds: not shown. */
export const OfferSubscriptionParamsSchema = paramsObject({
  /** Trial period in days. */
  trial_days: optional(integer()),
  /** Trial days text flag. */
  trial_days_text: optional(flag()),
  /** Price of the first charge. */
  first_charge_price: optional(integer()),
  /** Whether this is an extension. */
  is_extension: optional(flag()),
  /** Extension length. */
  extension_length: optional(integer()),
  /** Maximum number of charges. */
  max_charges: optional(integer()),
  /** Maximum number of charge attempts. */
  max_charges_attempts: optional(integer()),
});
/** Subscription settings sent with an offer update (spec §2.7). */
export type OfferSubscriptionParams = z.input<typeof OfferSubscriptionParamsSchema>;

/** Freight settings sent with an offer update (spec §2.8). Units and bounds: not shown. */
export const OfferFreightParamsSchema = paramsObject({
  /** Freight type; one value seen: `shipping_company`. */
  type: optional(text() as unknown as z.ZodMiniType<'shipping_company' | (string & {})>),
  /** Preparation days. */
  preparation_day: optional(integer()),
  /** First delivery day. */
  start_day: optional(integer()),
  /** Last delivery day. */
  end_day: optional(integer()),
  /** Fixed freight price. */
  fixed_price: optional(decimal()),
  /** States with free freight. */
  free_states: optional(listOf(text(), 'strings')),
  /** States not delivered to. */
  blocked_states: optional(listOf(text(), 'strings')),
  /** PAC shipping enabled. */
  is_pac: optional(flag()),
  /** SEDEX shipping enabled. */
  is_sedex: optional(flag()),
  /** PAC fallback price. */
  pac_fallback_price: optional(decimal()),
  /** PAC fallback last delivery day. */
  pac_fallback_end_day: optional(integer()),
  /** SEDEX fallback price. */
  sedex_fallback_price: optional(decimal()),
  /** SEDEX fallback last delivery day. */
  sedex_fallback_end_day: optional(integer()),
  /** Origin zip code. */
  zip_code: optional(text()),
  /** Package weight. */
  weight: optional(decimal()),
  /** Package length. */
  length: optional(decimal()),
  /** Package width. */
  width: optional(decimal()),
  /** Package height. */
  height: optional(decimal()),
});
/** Freight settings sent with an offer update (spec §2.8). */
export type OfferFreightParams = z.input<typeof OfferFreightParamsSchema>;

/** Fields of an offer update that only a recurring offer takes (spec §4.6). */
const RECURRING_ONLY = [
  'commission_only_first_installment',
  'affiliates_subscription_percentage',
  'subscription',
  'allow_pix_recurring',
  'pix_recurring_frequency',
  'pix_recurring_authorization_type',
] as const;

/**
 * The body of `offers.update` (`PUT /products/{product_hash}/offers/{offer_code}`; spec §4.6).
 * Every field is optional (the spec does not say which are required on update).
 *
 * Checked here: every documented limit, and the rules whose inputs are all in the body:
 * `allow_pix_recurring: true` needs `pix_recurring_frequency` and
 * `pix_recurring_authorization_type`; with `type_of_charge: 'one-time'` in the body the
 * recurring-only fields are refused (a boolean one only when `true`); with
 * `type_of_charge: 'recurring'` `allow_bank_slip_installments: true` is refused. When
 * `type_of_charge` is not sent the offer's stored type decides, so those are left to the service,
 * like `quantity_items` and `freight` being required for physical products (the product's type is
 * service state).
 */
export const UpdateOfferParamsSchema = paramsObject({
  /** Offer name, max 191 characters. */
  name: optional(text({ max: 191 })),
  /** Price in cents, integer 0 to 99999999. */
  price: optional(integer({ min: 0, max: 99_999_999 })),
  /** Strike-through price in cents. */
  fake_initial_price: optional(integer()),
  /** `one-time` or `recurring`. */
  type_of_charge: optional(oneOf(['one-time', 'recurring'])),
  /** Single-payment PIX. */
  allow_pix: optional(flag()),
  /** Bank slip. */
  allow_bank_slip: optional(flag()),
  /** Credit card. */
  allow_credit_card: optional(flag()),
  /** Stock, integer 1 to 100; required only for physical products, optional for `course` and `ebook`. */
  quantity_items: optional(integer({ min: 1, max: 100 })),
  /**
   * Automatic PIX (recurring debit); recurring offers only. When true, `pix_recurring_frequency`
   * and `pix_recurring_authorization_type` are required. The service saves it as false, without
   * error, while the operator has not enabled automatic PIX for the producer.
   */
  allow_pix_recurring: optional(flag()),
  /** Automatic-PIX frequency; required when `allow_pix_recurring` is true. */
  pix_recurring_frequency: optional(
    oneOf(['weekly', 'biweekly', 'monthly', 'quarterly', 'biannual', 'annual']),
  ),
  /** Automatic-PIX authorization type, only `monthly_auth_monthly_retry`; required when `allow_pix_recurring` is true. */
  pix_recurring_authorization_type: optional(oneOf(['monthly_auth_monthly_retry'])),
  /** Bank slip in installments; non-recurring offers only. */
  allow_bank_slip_installments: optional(flag()),
  /** Days until the bank slip is due, integer 1 to 7. */
  bank_slip_days_due: optional(integer({ min: 1, max: 7 })),
  /** Most bank slip installments, integer 1 to 12. */
  bank_slip_installments_limit: optional(integer({ min: 1, max: 12 })),
  /** Installment counts offered on credit card, each an integer 1 to 36. */
  credit_card_installments_options: optional(listOf(integer({ min: 1, max: 36 }), 'integers')),
  /** Affiliates allowed. */
  allow_affiliates: optional(flag()),
  /** Affiliate commission, 1 to 80 (spec §2.6, §8). */
  affiliates_percentage: optional(decimal({ min: 1, max: 80 })),
  /** The offer uses a commission different from the product default. */
  custom_commission: optional(flag()),
  /** Commission only on the first installment; recurring offers only. */
  commission_only_first_installment: optional(flag()),
  /** Affiliate commission on renewals, 1 to 80; recurring offers only. */
  affiliates_subscription_percentage: optional(
    decimal({
      min: 1,
      max: 80,
    }),
  ),
  /**
   * True: the buyer pays the fixed fee of 2.49 (BRL), added to the checkout total; false: the
   * producer absorbs it. Default true when not given on creation.
   */
  transfer_fixed_fee_to_buyer: optional(flag()),
  /**
   * When true and a card is declined for insufficient funds, an installment plan is created
   * automatically: no interest, equal split, at most 12 installments, at least 5 (BRL) each.
   */
  allow_smart_installment: optional(flag()),
  /** The producer pays the installment interest. */
  producer_pays_interest: optional(flag()),
  /** Subscription settings for `recurring` offers (spec §2.7, without `interval`). */
  subscription: optional(OfferSubscriptionParamsSchema),
  /** Freight settings; required for physical products (spec §2.8). */
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
/** The body of `offers.update` (spec §4.6). */
export type UpdateOfferParams = z.input<typeof UpdateOfferParamsSchema>;
