/**
 * Offers of a product: spec §2.6 to §2.8 (the resource, its subscription and freight settings) and
 * §4.6 (`PUT /products/{product_hash}/offers/{offer_code}`).
 *
 * @module
 */

import * as z from 'zod/mini';
import {
  ALWAYS,
  ARRAY_OF_STRINGS,
  decimal,
  described,
  fieldIssue,
  flag,
  integer,
  maybe,
  OBJECT,
  oneOf,
  openEnum,
  text,
} from './common';

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/** Subscription settings of a recurring offer (spec §2.7). Bounds: not shown. */
export const OfferSubscriptionSchema = z.looseObject({
  /** Charge interval; returned in responses only. One value seen: `weekly`; the set: not shown. */
  interval: maybe(openEnum(['weekly']), 'Charge interval; one value seen: weekly.'),
  /** Trial period in days. */
  trial_days: maybe(z.number(), 'Trial period in days.'),
  /** Trial days text flag. */
  trial_days_text: maybe(z.boolean(), 'Trial days text flag.'),
  /** Price of the first charge. */
  first_charge_price: maybe(z.number(), 'Price of the first charge.'),
  /** Whether this is an extension. */
  is_extension: maybe(z.boolean(), 'Whether this is an extension.'),
  /** Extension length. */
  extension_length: maybe(z.number(), 'Extension length.'),
  /** Maximum number of charges. */
  max_charges: maybe(z.number(), 'Maximum number of charges.'),
  /** Maximum number of charge attempts. */
  max_charges_attempts: maybe(z.number(), 'Maximum number of charge attempts.'),
});
/** Subscription settings of a recurring offer (spec §2.7). */
export type OfferSubscription = z.infer<typeof OfferSubscriptionSchema>;

/** Freight settings of an offer of a physical product (spec §2.8). Units and bounds: not shown. */
export const OfferFreightSchema = z.looseObject({
  /** Freight type; one value seen: `shipping_company`. */
  type: maybe(openEnum(['shipping_company']), 'Freight type; one value seen: shipping_company.'),
  /** Preparation days. */
  preparation_day: maybe(z.number(), 'Preparation days.'),
  /** First delivery day. */
  start_day: maybe(z.number(), 'First delivery day.'),
  /** Last delivery day. */
  end_day: maybe(z.number(), 'Last delivery day.'),
  /** Fixed freight price. */
  fixed_price: maybe(z.number(), 'Fixed freight price.'),
  /** States with free freight. */
  free_states: maybe(z.array(z.string()), 'States with free freight.'),
  /** States not delivered to. */
  blocked_states: maybe(z.array(z.string()), 'States not delivered to.'),
  /** PAC shipping enabled. */
  is_pac: maybe(z.boolean(), 'PAC shipping enabled.'),
  /** SEDEX shipping enabled. */
  is_sedex: maybe(z.boolean(), 'SEDEX shipping enabled.'),
  /** PAC fallback price. */
  pac_fallback_price: maybe(z.number(), 'PAC fallback price.'),
  /** PAC fallback last delivery day. */
  pac_fallback_end_day: maybe(z.number(), 'PAC fallback last delivery day.'),
  /** SEDEX fallback price. */
  sedex_fallback_price: maybe(z.number(), 'SEDEX fallback price.'),
  /** SEDEX fallback last delivery day. */
  sedex_fallback_end_day: maybe(z.number(), 'SEDEX fallback last delivery day.'),
  /** Origin zip code. */
  zip_code: maybe(z.string(), 'Origin zip code.'),
  /** Package weight. */
  weight: maybe(z.number(), 'Package weight.'),
  /** Package length. */
  length: maybe(z.number(), 'Package length.'),
  /** Package width. */
  width: maybe(z.number(), 'Package width.'),
  /** Package height. */
  height: maybe(z.number(), 'Package height.'),
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
  code: described(z.string(), 'Unique offer code.'),
  /** Offer name. */
  name: maybe(z.string(), 'Offer name.'),
  /** `one-time` or `recurring`. */
  type_of_charge: maybe(openEnum(['one-time', 'recurring']), 'one-time or recurring.'),
  /** Price in cents. */
  price: maybe(z.number(), 'Price in cents.'),
  /** Credit card accepted. */
  allow_credit_card: maybe(z.boolean(), 'Credit card accepted.'),
  /** Installment counts offered on credit card, each 1 to 36. */
  credit_card_installments_options: maybe(
    z.array(z.number()),
    'Installment counts offered on credit card, each 1 to 36.',
  ),
  /** Single-payment PIX accepted. */
  allow_pix: maybe(z.boolean(), 'Single-payment PIX accepted.'),
  /** Bank slip accepted. */
  allow_bank_slip: maybe(z.boolean(), 'Bank slip accepted.'),
  /** Creation time, `YYYY-MM-DD HH:mm:ss` (read it with `parseTimestamp`). */
  created_at: maybe(z.string(), 'Creation time, YYYY-MM-DD HH:mm:ss.'),
  /** Last update time, `YYYY-MM-DD HH:mm:ss` (read it with `parseTimestamp`). */
  updated_at: maybe(z.string(), 'Last update time, YYYY-MM-DD HH:mm:ss.'),
  /** Strike-through price in cents. */
  fake_initial_price: maybe(z.number(), 'Strike-through price in cents.'),
  /** Stock, 1 to 100, physical products. */
  quantity_items: maybe(z.number(), 'Stock, 1 to 100, physical products.'),
  /** Bank slip in installments allowed. */
  allow_bank_slip_installments: maybe(z.boolean(), 'Bank slip in installments allowed.'),
  /** Days until the bank slip is due, 1 to 7. */
  bank_slip_days_due: maybe(z.number(), 'Days until the bank slip is due, 1 to 7.'),
  /** Most bank slip installments, 1 to 12. */
  bank_slip_installments_limit: maybe(z.number(), 'Most bank slip installments, 1 to 12.'),
  /** Affiliates allowed. */
  allow_affiliates: maybe(z.boolean(), 'Affiliates allowed.'),
  /** Affiliate commission, 1 to 80. */
  affiliates_percentage: maybe(z.number(), 'Affiliate commission, 1 to 80.'),
  /** Affiliate commission on renewals, 1 to 80. */
  affiliates_subscription_percentage: maybe(
    z.number(),
    'Affiliate commission on renewals, 1 to 80.',
  ),
  /** Commission only on the first installment. */
  commission_only_first_installment: maybe(
    z.boolean(),
    'Commission only on the first installment.',
  ),
  /** The producer pays the installment interest. */
  producer_pays_interest: maybe(z.boolean(), 'The producer pays the installment interest.'),
  /** True when price = 0. */
  is_free: maybe(z.boolean(), 'True when price = 0.'),
  /** Whether the fixed per-transaction fee is passed to the buyer. */
  transfer_fixed_fee_to_buyer: maybe(
    z.boolean(),
    'Whether the fixed per-transaction fee is passed to the buyer.',
  ),
  /** Subscription settings (spec §2.7). */
  subscription: maybe(OfferSubscriptionSchema, 'Subscription settings (spec §2.7).'),
  /** Freight settings (spec §2.8). */
  freight: maybe(OfferFreightSchema, 'Freight settings (spec §2.8).'),
});
/** An offer as returned by its update (spec §2.6). */
export type Offer = z.infer<typeof OfferSchema>;

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** Subscription settings sent with an offer update (spec §2.7, without `interval`). Bounds: not shown. */
export const OfferSubscriptionParamsSchema = z.looseObject(
  {
    /** Trial period in days. */
    trial_days: z.optional(integer('Trial period in days.')),
    /** Trial days text flag. */
    trial_days_text: z.optional(flag('Trial days text flag.')),
    /** Price of the first charge. */
    first_charge_price: z.optional(integer('Price of the first charge.')),
    /** Whether this is an extension. */
    is_extension: z.optional(flag('Whether this is an extension.')),
    /** Extension length. */
    extension_length: z.optional(integer('Extension length.')),
    /** Maximum number of charges. */
    max_charges: z.optional(integer('Maximum number of charges.')),
    /** Maximum number of charge attempts. */
    max_charges_attempts: z.optional(integer('Maximum number of charge attempts.')),
  },
  OBJECT,
);
/** Subscription settings sent with an offer update (spec §2.7). */
export type OfferSubscriptionParams = z.input<typeof OfferSubscriptionParamsSchema>;

/** Freight settings sent with an offer update (spec §2.8). Units and bounds: not shown. */
export const OfferFreightParamsSchema = z.looseObject(
  {
    /** Freight type; one value seen: `shipping_company`. */
    type: z.optional(
      text('Freight type; one value seen: shipping_company.') as unknown as z.ZodMiniType<
        'shipping_company' | (string & {})
      >,
    ),
    /** Preparation days. */
    preparation_day: z.optional(integer('Preparation days.')),
    /** First delivery day. */
    start_day: z.optional(integer('First delivery day.')),
    /** Last delivery day. */
    end_day: z.optional(integer('Last delivery day.')),
    /** Fixed freight price. */
    fixed_price: z.optional(decimal('Fixed freight price.')),
    /** States with free freight. */
    free_states: z.optional(z.array(text('State with free freight.'), ARRAY_OF_STRINGS)),
    /** States not delivered to. */
    blocked_states: z.optional(z.array(text('State not delivered to.'), ARRAY_OF_STRINGS)),
    /** PAC shipping enabled. */
    is_pac: z.optional(flag('PAC shipping enabled.')),
    /** SEDEX shipping enabled. */
    is_sedex: z.optional(flag('SEDEX shipping enabled.')),
    /** PAC fallback price. */
    pac_fallback_price: z.optional(decimal('PAC fallback price.')),
    /** PAC fallback last delivery day. */
    pac_fallback_end_day: z.optional(integer('PAC fallback last delivery day.')),
    /** SEDEX fallback price. */
    sedex_fallback_price: z.optional(decimal('SEDEX fallback price.')),
    /** SEDEX fallback last delivery day. */
    sedex_fallback_end_day: z.optional(integer('SEDEX fallback last delivery day.')),
    /** Origin zip code. */
    zip_code: z.optional(text('Origin zip code.')),
    /** Package weight. */
    weight: z.optional(decimal('Package weight.')),
    /** Package length. */
    length: z.optional(decimal('Package length.')),
    /** Package width. */
    width: z.optional(decimal('Package width.')),
    /** Package height. */
    height: z.optional(decimal('Package height.')),
  },
  OBJECT,
);
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
export const UpdateOfferParamsSchema = z
  .looseObject(
    {
      /** Offer name, max 191 characters. */
      name: z.optional(text('Offer name, max 191.', { max: 191 })),
      /** Price in cents, integer 0 to 99999999. */
      price: z.optional(integer('Price in cents, 0 to 99999999.', { min: 0, max: 99_999_999 })),
      /** Strike-through price in cents. */
      fake_initial_price: z.optional(integer('Strike-through price in cents.')),
      /** `one-time` or `recurring`. */
      type_of_charge: z.optional(oneOf('one-time or recurring.', ['one-time', 'recurring'])),
      /** Single-payment PIX. */
      allow_pix: z.optional(flag('Single-payment PIX.')),
      /** Bank slip. */
      allow_bank_slip: z.optional(flag('Bank slip.')),
      /** Credit card. */
      allow_credit_card: z.optional(flag('Credit card.')),
      /** Stock, integer 1 to 100; required only for physical products, optional for `course` and `ebook`. */
      quantity_items: z.optional(
        integer('Stock, 1 to 100; required only for physical products.', { min: 1, max: 100 }),
      ),
      /**
       * Automatic PIX (recurring debit); recurring offers only. When true, `pix_recurring_frequency`
       * and `pix_recurring_authorization_type` are required. The service saves it as false, without
       * error, while the operator has not enabled automatic PIX for the producer.
       */
      allow_pix_recurring: z.optional(
        flag(
          'Automatic PIX; recurring offers only. When true, pix_recurring_frequency and pix_recurring_authorization_type are required. Saved as false while the producer is not enabled.',
        ),
      ),
      /** Automatic-PIX frequency; required when `allow_pix_recurring` is true. */
      pix_recurring_frequency: z.optional(
        oneOf('Automatic-PIX frequency; required when allow_pix_recurring is true.', [
          'weekly',
          'biweekly',
          'monthly',
          'quarterly',
          'biannual',
          'annual',
        ]),
      ),
      /** Automatic-PIX authorization type, only `monthly_auth_monthly_retry`; required when `allow_pix_recurring` is true. */
      pix_recurring_authorization_type: z.optional(
        oneOf('Automatic-PIX authorization type; required when allow_pix_recurring is true.', [
          'monthly_auth_monthly_retry',
        ]),
      ),
      /** Bank slip in installments; non-recurring offers only. */
      allow_bank_slip_installments: z.optional(
        flag('Bank slip in installments; non-recurring offers only.'),
      ),
      /** Days until the bank slip is due, integer 1 to 7. */
      bank_slip_days_due: z.optional(
        integer('Days until the bank slip is due, 1 to 7.', { min: 1, max: 7 }),
      ),
      /** Most bank slip installments, integer 1 to 12. */
      bank_slip_installments_limit: z.optional(
        integer('Most bank slip installments, 1 to 12.', { min: 1, max: 12 }),
      ),
      /** Installment counts offered on credit card, each an integer 1 to 36. */
      credit_card_installments_options: z.optional(
        described(
          z.array(integer('Installment count, 1 to 36.', { min: 1, max: 36 }), {
            error: 'Expected an array of integers',
          }),
          'Installment counts offered on credit card, each 1 to 36.',
        ),
      ),
      /** Affiliates allowed. */
      allow_affiliates: z.optional(flag('Affiliates allowed.')),
      /** Affiliate commission, 1 to 80 (spec §2.6, §8). */
      affiliates_percentage: z.optional(
        decimal('Affiliate commission, 1 to 80.', { min: 1, max: 80 }),
      ),
      /** The offer uses a commission different from the product default. */
      custom_commission: z.optional(
        flag('The offer uses a commission different from the product default.'),
      ),
      /** Commission only on the first installment; recurring offers only. */
      commission_only_first_installment: z.optional(
        flag('Commission only on the first installment; recurring offers only.'),
      ),
      /** Affiliate commission on renewals, 1 to 80; recurring offers only. */
      affiliates_subscription_percentage: z.optional(
        decimal('Affiliate commission on renewals, 1 to 80; recurring offers only.', {
          min: 1,
          max: 80,
        }),
      ),
      /**
       * True: the buyer pays the fixed fee of 2.49 (BRL), added to the checkout total; false: the
       * producer absorbs it. Default true when not given on creation.
       */
      transfer_fixed_fee_to_buyer: z.optional(
        flag('True: the buyer pays the fixed fee of 2.49 BRL; false: the producer absorbs it.'),
      ),
      /**
       * When true and a card is declined for insufficient funds, an installment plan is created
       * automatically: no interest, equal split, at most 12 installments, at least 5 (BRL) each.
       */
      allow_smart_installment: z.optional(
        flag(
          'When true and a card is declined for insufficient funds, an installment plan is created: no interest, at most 12 installments, at least 5 BRL each.',
        ),
      ),
      /** The producer pays the installment interest. */
      producer_pays_interest: z.optional(flag('The producer pays the installment interest.')),
      /** Subscription settings for `recurring` offers (spec §2.7, without `interval`). */
      subscription: z.optional(
        described(OfferSubscriptionParamsSchema, 'Subscription settings for recurring offers.'),
      ),
      /** Freight settings; required for physical products (spec §2.8). */
      freight: z.optional(
        described(OfferFreightParamsSchema, 'Freight settings; required for physical products.'),
      ),
    },
    OBJECT,
  )
  .check(
    z.superRefine((value: Record<string, unknown>, ctx) => {
      if (value.allow_pix_recurring === true) {
        for (const field of ['pix_recurring_frequency', 'pix_recurring_authorization_type']) {
          if (value[field] === undefined) {
            fieldIssue(ctx, [field], 'Required when allow_pix_recurring is true');
          }
        }
      }
      if (value.type_of_charge === 'one-time') {
        for (const field of RECURRING_ONLY) {
          const sent = value[field];
          if (sent === undefined || sent === false) continue;
          fieldIssue(ctx, [field], 'Only for recurring offers (type_of_charge is one-time)', sent);
        }
      } else if (value.type_of_charge === 'recurring' && value.allow_bank_slip_installments) {
        fieldIssue(
          ctx,
          ['allow_bank_slip_installments'],
          'Only for non-recurring offers (type_of_charge is recurring)',
          value.allow_bank_slip_installments,
        );
      }
    }, ALWAYS),
  );
/** The body of `offers.update` (spec §4.6). */
export type UpdateOfferParams = z.input<typeof UpdateOfferParamsSchema>;
