/**
 * `GET /products/{hash}` (§4.9), `GET /products` (§4.10, `page`/`per_page`, `meta`) and
 * `PUT /products/{hash}/offers/{code}` (§4.6, with automatic-PIX enablement per producer; only an
 * offer of the caller's own products).
 *
 * @module
 */

import { sqlDateTime } from '../clock';
import { formToObject } from '../multipart';
import { errorMessage, json, unprocessable } from '../respond';
import type { Route } from '../router';
import type { MockState } from '../state';
import { laravelInput, type StringReading, validate } from '../validation/laravel';
import { offerRules } from '../validation/offer-rules';
import { LIST_PRODUCTS_RULES } from '../validation/rules';
import type { HiddenOfferSettings, WireOffer } from '../wire';

/** Page size of `GET /products` when `per_page` is not sent (the spec does not show it; Laravel's default). */
export const DEFAULT_PRODUCTS_PER_PAGE = 15;

/**
 * The query values of `names` as a Laravel service reads them: parsed as PHP does (the last of a
 * repeated name wins, `page[]=1` is an array), then trimmed, `''` read as `null`.
 */
export function queryParams(
  url: URL,
  names: readonly string[],
  reading: StringReading,
): Record<string, unknown> {
  const query = formToObject(url.searchParams);
  const out: Record<string, unknown> = {};
  for (const name of names) if (Object.hasOwn(query, name)) out[name] = query[name];
  return laravelInput(out, reading) as Record<string, unknown>;
}

/** Turns automatic PIX off on every offer of a producer (spec §4.6 rule 4). */
export function revokePixRecurring(state: MockState, producerCode: string): void {
  state.pixEnabled.delete(producerCode);
  for (const p of state.products) {
    if (p.producerCode !== producerCode) continue;
    for (const o of p.offers) o.hidden.allow_pix_recurring = false;
  }
}

const HIDDEN_KEYS = [
  'allow_pix_recurring',
  'pix_recurring_frequency',
  'pix_recurring_authorization_type',
  'custom_commission',
  'allow_smart_installment',
] as const;

/** Offer fields a request sets as sent (spec §4.6), after validation. */
const OFFER_FIELDS = [
  'name',
  'price',
  'fake_initial_price',
  'type_of_charge',
  'allow_pix',
  'allow_bank_slip',
  'allow_credit_card',
  'quantity_items',
  'allow_bank_slip_installments',
  'bank_slip_days_due',
  'bank_slip_installments_limit',
  'credit_card_installments_options',
  'allow_affiliates',
  'affiliates_percentage',
  'commission_only_first_installment',
  'affiliates_subscription_percentage',
  'transfer_fixed_fee_to_buyer',
  'producer_pays_interest',
] as const;

/** Subscription settings a request may set: §2.7 without `interval`, which is response-only. */
const SUBSCRIPTION_FIELDS = [
  'trial_days',
  'trial_days_text',
  'first_charge_price',
  'is_extension',
  'extension_length',
  'max_charges',
  'max_charges_attempts',
] as const;

const FREIGHT_FIELDS = [
  'type',
  'preparation_day',
  'start_day',
  'end_day',
  'fixed_price',
  'free_states',
  'blocked_states',
  'is_pac',
  'is_sedex',
  'pac_fallback_price',
  'pac_fallback_end_day',
  'sedex_fallback_price',
  'sedex_fallback_end_day',
  'zip_code',
  'weight',
  'length',
  'width',
  'height',
] as const;

const TEXT_FIELDS = new Set(['name', 'type_of_charge', 'type', 'zip_code']);
const LIST_OF_TEXT = new Set(['free_states', 'blocked_states']);
const FLAG_FIELD =
  /^(allow_|is_)|^(commission_only_first_installment|transfer_fixed_fee_to_buyer|producer_pays_interest|trial_days_text)$/;

/**
 * A value as the service stores it, whatever lax form Laravel's rules let through: numeric text
 * as a number, `1`/`0` as a boolean for the boolean fields (Eloquent's casts).
 */
function stored(key: string, value: unknown): unknown {
  if (value === null || TEXT_FIELDS.has(key) || LIST_OF_TEXT.has(key)) return value;
  if (FLAG_FIELD.test(key)) return value === true || value === 1 || value === '1';
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? Number(v) : v));
  return typeof value === 'string' ? Number(value) : value;
}

/** Copies the known fields of `from` onto `to` (unknown and response-only keys are dropped). */
function assignKnown(to: Record<string, unknown>, from: unknown, fields: readonly string[]): void {
  if (from === null || typeof from !== 'object') return;
  for (const key of fields) {
    if (Object.hasOwn(from, key)) to[key] = stored(key, (from as Record<string, unknown>)[key]);
  }
}

/** Applies a validated update to the stored offer. */
function applyOffer(offer: WireOffer, input: Record<string, unknown>, now: number): void {
  const target = offer as unknown as Record<string, unknown>;
  assignKnown(target, input, OFFER_FIELDS);
  for (const [key, fields] of [
    ['subscription', SUBSCRIPTION_FIELDS],
    ['freight', FREIGHT_FIELDS],
  ] as const) {
    if (!Object.hasOwn(input, key)) continue;
    if (input[key] === null) {
      target[key] = null;
      continue;
    }
    const merged = { ...((target[key] as object | null) ?? {}) } as Record<string, unknown>;
    assignKnown(merged, input[key], fields);
    target[key] = merged;
  }
  offer.updated_at = sqlDateTime(new Date(now));
  offer.is_free = offer.price === 0;
}

/** Product and offer routes. */
export const productRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/products',
    auth: 'client',
    async handle({ url, state }) {
      const query = queryParams(url, ['page', 'per_page'], state.shapes.strings);
      const errors = await validate(query, LIST_PRODUCTS_RULES);
      if (errors) return unprocessable(errors);
      const page = query.page == null ? 1 : Number(query.page);
      const perPage = query.per_page == null ? DEFAULT_PRODUCTS_PER_PAGE : Number(query.per_page);
      const total = state.products.length;
      const start = (page - 1) * perPage;
      return json({
        data: state.products.slice(start, start + perPage).map((p) => p.product),
        meta: {
          current_page: page,
          last_page: Math.max(1, Math.ceil(total / perPage)),
          per_page: perPage,
          total,
        },
      });
    },
  },
  {
    method: 'GET',
    pattern: '/products/:hash',
    auth: 'client',
    handle({ params, state }) {
      const found = state.products.find((p) => p.product.hash === params.hash);
      return found ? json(found.product) : errorMessage(404, 'Product not found.');
    },
  },
  {
    method: 'PUT',
    pattern: '/products/:hash/offers/:code',
    auth: 'user',
    async handle({ params, body, state, accountCode }) {
      const product = state.products.find((p) => p.product.hash === params.hash);
      const entry = product?.offers.find((o) => o.offer.code === params.code);
      // Only the caller's own products: another seller's offer is not found.
      const owned = product?.producerCode === accountCode;
      if (!product || !entry || !owned) return errorMessage(404, 'Offer not found.');
      const input = laravelInput(body ?? {}, state.shapes.strings) as Record<string, unknown>;
      // Recurring-only settings are judged on the offer's type after the update: the type sent,
      // else the stored one, so sending `type_of_charge` unchanged never changes the verdict.
      const typeOfCharge =
        typeof input.type_of_charge === 'string'
          ? input.type_of_charge
          : entry.offer.type_of_charge;
      const errors = await validate(
        input,
        offerRules({ productType: product.product.type, typeOfCharge }),
      );
      if (errors) return unprocessable(errors);
      applyOffer(entry.offer, input, state.clock.now());
      const hidden = entry.hidden as unknown as Record<string, unknown>;
      for (const key of HIDDEN_KEYS) if (key in input) hidden[key] = input[key];
      // §4.6 rule 3: without the operator's enablement the value is saved as false, silently.
      if (!state.pixEnabled.has(product.producerCode)) entry.hidden.allow_pix_recurring = false;
      return json(entry.offer satisfies WireOffer);
    },
  },
];

/** The stored offer with the settings the response leaves out, for tests to inspect. */
export type StoredOffer = WireOffer & HiddenOfferSettings;
