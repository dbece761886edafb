/**
 * Anticipations: `POST /financial/anticipation/confirm/{hash}` (§4.7, body `{ scenario }`, the
 * field name assumed by DESIGN §6) and `GET /financial/anticipation` (§4.8, newest first,
 * pagination in `data.pagination`). The 10-minute cache of §4.8 is not simulated: the list always
 * reflects the latest confirmations.
 *
 * @module
 */

import { isoWithOffset } from '../clock';
import { envelope, errorMessage, json, unprocessable } from '../respond';
import type { Route } from '../router';
import { laravelInput, validate } from '../validation/laravel';
import { CONFIRM_ANTICIPATION_RULES, LIST_ANTICIPATIONS_RULES } from '../validation/rules';
import { queryParams } from './products';

/** The fee the mock charges on a confirmed anticipation (2.99%). */
const FEE_RATE = 0.0299;

/** Anticipation routes. */
export const anticipationRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/financial/anticipation/confirm/:hash',
    auth: 'user',
    async handle({ params, body, state }) {
      const pending = state.confirmable.get(params.hash!);
      if (!pending) return errorMessage(404, 'Anticipation not found.');
      const errors = await validate(laravelInput(body ?? {}), CONFIRM_ANTICIPATION_RULES);
      if (errors) return unprocessable(errors);
      if (pending.confirmed) return errorMessage(409, 'This anticipation was already confirmed.');
      pending.confirmed = true;
      const createdAt = isoWithOffset();
      const fee = Math.round(pending.amount * FEE_RATE);
      state.anticipations.unshift({
        hash: params.hash!,
        status: 'approved',
        amount: pending.amount,
        fee,
        net_value: pending.amount - fee,
        created_at: createdAt,
      });
      return json({ amount: pending.amount, status: 'approved', created_at: createdAt });
    },
  },
  {
    method: 'GET',
    pattern: '/financial/anticipation',
    auth: 'user',
    async handle({ url, state }) {
      const query = queryParams(url, ['page', 'per_page']);
      const errors = await validate(query, LIST_ANTICIPATIONS_RULES);
      if (errors) return unprocessable(errors);
      const page = query.page == null ? 1 : Number(query.page);
      const perPage = query.per_page == null ? 25 : Number(query.per_page);
      const total = state.anticipations.length;
      const start = (page - 1) * perPage;
      const items = state.anticipations.slice(start, start + perPage);
      return envelope(
        {
          anticipations: items,
          pagination: {
            current_page: page,
            // A Laravel paginator sends null here on an empty page; the spec types both as
            // integers (§2.13), so the kit sends 0, which every integer reader accepts.
            from: items.length > 0 ? start + 1 : 0,
            per_page: perPage,
            to: items.length > 0 ? start + items.length : 0,
            total,
            last_page: Math.max(1, Math.ceil(total / perPage)),
          },
        },
        'Anticipations retrieved successfully.',
      );
    },
  },
];
