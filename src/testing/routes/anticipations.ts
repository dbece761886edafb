/**
 * Anticipations: `POST /financial/anticipation/confirm/{hash}` (§4.7, body `{ scenario }`, the
 * field name the SDK assumes, set by the seed's `assumptions.anticipationConfirmation`)
 * and `GET /financial/anticipation` (§4.8, newest first, pagination in `data.pagination`). Each
 * seller has its own history, and a calculated anticipation is the seller's whose confirmation
 * first names it. The list is cached for 10 minutes per account and filter set, as
 * §4.8 says, on the kit's clock: a confirmation shows in the list once the cached page is older
 * than that (`mock.advanceClock(10 * 60_000)`).
 *
 * @module
 */

import { isoWithOffset } from '../clock';
import { envelope, errorMessage, json, unprocessable } from '../respond';
import type { Route, RouteContext } from '../router';
import type { MockState } from '../state';
import { laravelInput, validate } from '../validation/laravel';
import { confirmAnticipationRules, LIST_ANTICIPATIONS_RULES } from '../validation/rules';
import { queryParams } from './products';

/** The fee the mock charges on a confirmed anticipation (2.99%). */
const FEE_RATE = 0.0299;

/** How long a computed list is served as it was (spec §4.8, §8). */
export const ANTICIPATION_CACHE_MS = 10 * 60_000;

/** Confirms a calculated anticipation, adding it to the caller's history. */
async function confirm({ params, body, state, accountCode }: RouteContext): Promise<Response> {
  const pending = state.confirmable.get(params.hash!);
  // Another seller's calculation is not found: a 409 would tell that seller it was confirmed.
  if (pending) pending.seller ??= accountCode;
  if (!pending || pending.seller !== accountCode) {
    return errorMessage(404, 'Anticipation not found.');
  }
  const { field } = state.shapes.anticipationConfirmation;
  const input = laravelInput(body ?? {}, state.shapes.strings);
  const errors = await validate(input, confirmAnticipationRules(field));
  if (errors) return unprocessable(errors);
  if (pending.confirmed) return errorMessage(409, 'This anticipation was already confirmed.');
  pending.confirmed = true;
  const createdAt = isoWithOffset(new Date(state.clock.now()));
  const fee = Math.round(pending.amount * FEE_RATE);
  historyOf(state, accountCode).unshift({
    hash: params.hash!,
    status: 'approved',
    amount: pending.amount,
    fee,
    net_value: pending.amount - fee,
    created_at: createdAt,
  });
  return json({ amount: pending.amount, status: 'approved', created_at: createdAt });
}

function historyOf(state: MockState, accountCode: string) {
  const history = state.anticipations.get(accountCode) ?? [];
  state.anticipations.set(accountCode, history);
  return history;
}

/** One page of the caller's history, as the service computes it (before its cache). */
function page(state: MockState, accountCode: string, query: Record<string, unknown>): unknown {
  const current = query.page == null ? 1 : Number(query.page);
  const perPage = query.per_page == null ? 25 : Number(query.per_page);
  const history = historyOf(state, accountCode);
  const start = (current - 1) * perPage;
  const items = history.slice(start, start + perPage);
  return {
    anticipations: items,
    pagination: {
      current_page: current,
      // A Laravel paginator sends null here on an empty page; the spec types both as
      // integers (§2.13), so the kit sends 0, which every integer reader accepts.
      from: items.length > 0 ? start + 1 : 0,
      per_page: perPage,
      to: items.length > 0 ? start + items.length : 0,
      total: history.length,
      last_page: Math.max(1, Math.ceil(history.length / perPage)),
    },
  };
}

/** Lists the caller's anticipations, served from the cache while it is fresh. */
async function list({ url, state, accountCode }: RouteContext): Promise<Response> {
  const query = queryParams(url, ['page', 'per_page'], state.shapes.strings);
  const errors = await validate(query, LIST_ANTICIPATIONS_RULES);
  if (errors) return unprocessable(errors);
  const key = JSON.stringify([accountCode, query.page ?? null, query.per_page ?? null]);
  const now = state.clock.now();
  let cached = state.anticipationCache.get(key);
  if (!cached || now - cached.at >= ANTICIPATION_CACHE_MS) {
    cached = { at: now, body: page(state, accountCode, query) };
    state.anticipationCache.set(key, cached);
  }
  return envelope(structuredClone(cached.body), 'Anticipations retrieved successfully.');
}

/** Anticipation routes. */
export const anticipationRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/financial/anticipation/confirm/:hash',
    auth: 'user',
    handle: confirm,
  },
  { method: 'GET', pattern: '/financial/anticipation', auth: 'user', handle: list },
];
