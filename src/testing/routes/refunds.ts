/**
 * Refunds: `POST /financial/refund/{transaction_hash}` (§4.2, 202 + `Location`, or 200 with the
 * active refund), `GET /financial/refund/{transaction_hash}` (§4.3) and the status endpoint
 * `GET /financial/refund/{transaction_hash}/status`, whose shape the spec does not show: the mock
 * answers the envelope with the latest refund in `data` (the SDK reads `data.status`, the
 * envelope's own `status` being `success`). Its status moves `requested` (for the scripted number
 * of polls) → `success` (one poll) → `completed`, or `requested` → `failed` when `refundOutcome`
 * scripts a failure. `requested` and `success` are the active states of spec §3: a new request on
 * either answers 200 with that refund. The status path, the four statuses' names and the zone of
 * `created_at` follow the seed's `assumptions`.
 *
 * @module
 */

import { brDateTime } from '../clock';
import { envelope, errorMessage, unprocessable } from '../respond';
import type { Route, RouteContext } from '../router';
import { type KitShapes, patternOf } from '../shapes';
import { countOf, type MockState, type RefundRecord, randomId } from '../state';
import { laravelInput, validate } from '../validation/laravel';
import { refundRules } from '../validation/rules';

/**
 * The transaction `hash` as `accountCode` sees it: one that belongs to another seller is not found,
 * as the service keeps each seller's transactions apart. One no seller owns yet (seeded, or added
 * without a seller) becomes the seller's whose refund call first names it: a suite may refund it
 * with either seller, and the other seller never sees that refund.
 */
function transactionOf(state: MockState, hash: string, accountCode: string) {
  const trx = state.transactions.get(hash);
  if (trx === undefined) return undefined;
  trx.seller ??= accountCode;
  return trx.seller === accountCode ? trx : undefined;
}

/** Whether a refund is active (spec §3: `requested` or `success`, as the kit names them). */
function isActive(state: MockState, record: RefundRecord): boolean {
  return state.shapes.refundStatus.active.includes(record.refund.status);
}

/** A refund's timestamp: the kit's time in the zone its refunds are written in. */
function refundTime(state: MockState): string {
  return brDateTime(new Date(state.clock.now()), state.shapes.reconciliation.timeZone);
}

/** Scripts how refunds of a transaction end: the active one and those requested later. */
export function planRefund(
  state: MockState,
  transactionHash: string,
  outcome: 'completed' | 'failed',
  polls = state.defaultRefundPolls,
): void {
  countOf('refundOutcome: polls', polls);
  // A plan for a transaction the kit does not have would never be used: the test meant another.
  if (!state.transactions.has(transactionHash)) {
    throw new RangeError(`refundOutcome: no transaction ${transactionHash} in the mock`);
  }
  state.refundPlans.set(transactionHash, { outcome, polls });
  for (const r of state.transactions.get(transactionHash)?.records ?? []) {
    if (isActive(state, r)) Object.assign(r, { outcome, polls });
  }
}

/** One status poll of an active refund: the status it shows from now on. */
function advance(state: MockState, record: RefundRecord): void {
  if (!isActive(state, record)) return;
  record.seen += 1;
  if (record.seen <= record.polls) return;
  const [requested, success] = state.shapes.refundStatus.active;
  const [completed, failed] = state.shapes.refundStatus.terminal;
  const done = record.outcome === 'completed';
  // The accepted step is shown once, even when both active steps share one name.
  const step = done && record.refund.status === requested && !record.accepted;
  record.refund.status = step ? success : done ? completed : failed;
  record.accepted ||= step;
  record.refund.updated_at = refundTime(state);
}

/** Refund routes, the status endpoint at the path `refundStatus` names. */
export function refundRoutes({ refundStatus }: KitShapes): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/financial/refund/:hash',
      auth: 'user',
      handle: (context) => requestRefund(context, refundStatus.path),
    },
    {
      method: 'GET',
      pattern: '/financial/refund/:hash',
      auth: 'user',
      handle({ params, state, accountCode }) {
        const trx = transactionOf(state, params.hash!, accountCode);
        if (!trx) return errorMessage(404, 'Transaction not found.');
        return envelope(
          trx.records.map((r) => r.refund),
          'Refunds retrieved successfully.',
        );
      },
    },
    {
      method: 'GET',
      pattern: patternOf(refundStatus.path),
      auth: 'user',
      handle({ params, state, accountCode }) {
        const latest = transactionOf(state, params.hash!, accountCode)?.records.at(-1);
        if (!latest) return errorMessage(404, 'No refund found for this transaction.');
        advance(state, latest);
        return envelope({ ...latest.refund }, 'Refund status retrieved successfully.');
      },
    },
  ];
}

/**
 * `POST /financial/refund/{transaction_hash}`: 202 with the status endpoint (at `statusPath`) in
 * `Location` for a new refund, 200 with the active one when there is one (spec §3).
 */
async function requestRefund(
  { params, body, state, apiBase, accountCode }: RouteContext,
  statusPath: string,
): Promise<Response> {
  const trx = transactionOf(state, params.hash!, accountCode);
  if (!trx) return errorMessage(404, 'Transaction not found.');
  const input = laravelInput(body ?? {}, state.shapes.strings) as Record<string, unknown>;
  const errors = await validate(
    input,
    refundRules((code) => state.users.has(code)),
  );
  if (errors) return unprocessable(errors);
  const active = trx.records.find((r) => isActive(state, r));
  if (active) {
    return envelope(active.refund, 'An active refund already exists for this transaction.');
  }
  const now = refundTime(state);
  const plan = state.refundPlans.get(trx.hash) ?? {
    outcome: 'completed' as const,
    polls: state.defaultRefundPolls,
  };
  trx.records.push({
    refund: {
      hash: randomId('rfd'),
      transaction_hash: trx.hash,
      status: state.shapes.refundStatus.active[0],
      amount: trx.amount,
      observation: typeof input.observation === 'string' ? input.observation : '',
      created_at: now,
      updated_at: now,
    },
    ...plan,
    seen: 0,
  });
  const location = `${apiBase}${statusPath.replace('{hash}', encodeURIComponent(trx.hash))}`;
  return envelope(
    { transaction_hash: trx.hash },
    'Refund request accepted for processing.',
    202,
    { location },
    'processing',
  );
}
