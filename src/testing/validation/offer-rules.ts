/**
 * The kit's rules of an offer update (`PUT /products/{hash}/offers/{code}`, spec §2.7, §2.8,
 * §4.6, §8), written from the spec's tables: which settings each kind of offer takes, and the
 * subscription's and freight's fields.
 *
 * @module
 */

import type { CustomRule, RuleSet } from './laravel';
import { optionalFlag, optionalInteger, optionalNumber, optionalText } from './shorthands';

/** Fields of an offer update only a recurring offer takes (spec §2.7, §4.6). */
export const RECURRING_ONLY = [
  'allow_pix_recurring',
  'pix_recurring_frequency',
  'pix_recurring_authorization_type',
  'commission_only_first_installment',
  'affiliates_subscription_percentage',
  'subscription',
] as const;

/** A setting a kind of offer does not take: refused unless absent, `null` or `false`. */
function onlyFor(kind: 'recurring' | 'non-recurring', applies: boolean): CustomRule {
  return (value, attribute) =>
    applies || value === false || value === 0 || value === '0'
      ? undefined
      : `The ${attribute} field is only allowed for ${kind} offers.`;
}

/** Subscription settings of an offer update (spec §2.7, without the response-only `interval`). */
const SUBSCRIPTION_RULES: RuleSet = {
  'subscription.trial_days': optionalInteger(),
  'subscription.trial_days_text': optionalFlag,
  'subscription.first_charge_price': optionalInteger(),
  'subscription.is_extension': optionalFlag,
  'subscription.extension_length': optionalInteger(),
  'subscription.max_charges': optionalInteger(),
  'subscription.max_charges_attempts': optionalInteger(),
};

/** Freight settings of an offer update (spec §2.8: types only, bounds not shown). */
const FREIGHT_RULES: RuleSet = {
  'freight.type': optionalText(),
  'freight.preparation_day': optionalInteger(),
  'freight.start_day': optionalInteger(),
  'freight.end_day': optionalInteger(),
  'freight.fixed_price': optionalNumber(),
  'freight.free_states': ['nullable', 'array'],
  'freight.free_states.*': ['string'],
  'freight.blocked_states': ['nullable', 'array'],
  'freight.blocked_states.*': ['string'],
  'freight.is_pac': optionalFlag,
  'freight.is_sedex': optionalFlag,
  'freight.pac_fallback_price': optionalNumber(),
  'freight.pac_fallback_end_day': optionalInteger(),
  'freight.sedex_fallback_price': optionalNumber(),
  'freight.sedex_fallback_end_day': optionalInteger(),
  'freight.zip_code': optionalText(),
  'freight.weight': optionalNumber(),
  'freight.length': optionalNumber(),
  'freight.width': optionalNumber(),
  'freight.height': optionalNumber(),
};

/** What the offer rules need to know: the product's type and the offer's type after the update. */
export interface OfferState {
  /** `course`, `ebook` or `physical` (stored on the product). */
  productType: string;
  /** `type_of_charge` as sent, else as stored: the offer's type once updated. */
  typeOfCharge: string;
}

/** `PUT /products/{hash}/offers/{code}` (spec §2.7, §2.8, §4.6, §8). */
export function offerRules({ productType, typeOfCharge }: OfferState): RuleSet {
  const physical = productType === 'physical';
  const recurring = typeOfCharge === 'recurring';
  const forRecurring = onlyFor('recurring', recurring);
  return {
    name: optionalText('max:191'),
    price: optionalInteger('min:0', 'max:99999999'),
    fake_initial_price: optionalInteger(),
    type_of_charge: ['nullable', 'in:one-time,recurring'],
    allow_pix: optionalFlag,
    allow_bank_slip: optionalFlag,
    allow_credit_card: optionalFlag,
    quantity_items: [{ requiredWhen: physical }, ...optionalInteger('min:1', 'max:100')],
    allow_pix_recurring: ['nullable', 'boolean', forRecurring],
    pix_recurring_frequency: [
      'required_if:allow_pix_recurring,true',
      'nullable',
      'in:weekly,biweekly,monthly,quarterly,biannual,annual',
      forRecurring,
    ],
    pix_recurring_authorization_type: [
      'required_if:allow_pix_recurring,true',
      'nullable',
      'in:monthly_auth_monthly_retry',
      forRecurring,
    ],
    allow_bank_slip_installments: ['nullable', 'boolean', onlyFor('non-recurring', !recurring)],
    bank_slip_days_due: optionalInteger('min:1', 'max:7'),
    bank_slip_installments_limit: optionalInteger('min:1', 'max:12'),
    credit_card_installments_options: ['nullable', 'array'],
    'credit_card_installments_options.*': ['integer', 'min:1', 'max:36'],
    allow_affiliates: optionalFlag,
    // Not in §4.6's request table, but §8 bounds "affiliate commission percentages" 1 to 80.
    affiliates_percentage: optionalNumber('min:1', 'max:80'),
    custom_commission: optionalFlag,
    commission_only_first_installment: ['nullable', 'boolean', forRecurring],
    affiliates_subscription_percentage: optionalNumber('min:1', 'max:80', forRecurring),
    transfer_fixed_fee_to_buyer: optionalFlag,
    allow_smart_installment: optionalFlag,
    producer_pays_interest: optionalFlag,
    subscription: ['nullable', 'array', forRecurring],
    ...SUBSCRIPTION_RULES,
    freight: [{ requiredWhen: physical }, 'nullable', 'array'],
    ...FREIGHT_RULES,
  };
}
