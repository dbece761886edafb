/**
 * `GET /products/{hash}` (§4.9), `GET /products` (§4.10, `page`/`per_page`, `meta`) and
 * `PUT /products/{hash}/offers/{code}` (§4.6, with automatic-PIX enablement per producer).
 *
 * @module
 */

import { sqlDateTime } from '../clock';
import { errorMessage, json, unprocessable } from '../respond';
import type { Route } from '../router';
import type { MockState } from '../state';
import { validateRequest } from '../validation';
import type { HiddenOfferSettings, WireOffer } from '../wire';

/** Page size of `GET /products` when `per_page` is not sent (the spec does not show it; Laravel's default). */
export const DEFAULT_PRODUCTS_PER_PAGE = 15;

/** Query values arrive as strings; integers become numbers so the request schema can judge them. */
export function queryParams(url: URL, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const raw = url.searchParams.get(name);
    if (raw !== null) out[name] = /^-?\d+$/.test(raw) ? Number(raw) : raw;
  }
  return out;
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

function offerRules(
  type: string,
  next: Record<string, unknown>,
  body: Record<string, unknown>,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (type === 'physical') {
    if (next.quantity_items == null)
      errors.quantity_items = ['The quantity items field is required for physical products.'];
    if (next.freight == null)
      errors.freight = ['The freight field is required for physical products.'];
  }
  const recurring = next.type_of_charge === 'recurring';
  for (const k of [
    'allow_pix_recurring',
    'commission_only_first_installment',
    'affiliates_subscription_percentage',
  ]) {
    if (!recurring && body[k] !== undefined && body[k] !== false && body[k] !== null)
      errors[k] = [`The ${k.replaceAll('_', ' ')} field is only allowed for recurring offers.`];
  }
  if (recurring && body.allow_bank_slip_installments === true)
    errors.allow_bank_slip_installments = [
      'The allow bank slip installments field is only allowed for non-recurring offers.',
    ];
  return errors;
}

/** Product and offer routes. */
export const productRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/products',
    auth: 'client',
    async handle({ url, state }) {
      const query = queryParams(url, ['page', 'per_page']);
      const errors = await validateRequest('listProducts', query);
      if (errors) return unprocessable(errors);
      const page = typeof query.page === 'number' && query.page >= 1 ? query.page : 1;
      const perPage =
        typeof query.per_page === 'number' && query.per_page >= 1
          ? query.per_page
          : DEFAULT_PRODUCTS_PER_PAGE;
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
    auth: 'client',
    async handle({ params, body, state }) {
      const product = state.products.find((p) => p.product.hash === params.hash);
      const entry = product?.offers.find((o) => o.offer.code === params.code);
      if (!product || !entry) return errorMessage(404, 'Offer not found.');
      const schemaErrors = await validateRequest('updateOffer', body ?? {});
      if (schemaErrors) return unprocessable(schemaErrors);
      const input = (body ?? {}) as Record<string, unknown>;
      const offer = entry.offer as unknown as Record<string, unknown>;
      const next: Record<string, unknown> = { ...offer };
      for (const [key, value] of Object.entries(input)) {
        if ((HIDDEN_KEYS as readonly string[]).includes(key) || key === 'code') continue;
        if (key === 'subscription' || key === 'freight')
          next[key] = { ...((offer[key] as object | null) ?? {}), ...(value as object) };
        else next[key] = value;
      }
      const errors = offerRules(product.product.type, next, input);
      if (Object.keys(errors).length > 0) return unprocessable(errors);

      Object.assign(offer, next, { updated_at: sqlDateTime() });
      entry.offer.is_free = entry.offer.price === 0;
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
