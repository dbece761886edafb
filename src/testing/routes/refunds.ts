/**
 * Refunds: `POST /financial/refund/{transaction_hash}` (§4.2, 202 + `Location`, or 200 with the
 * active refund), `GET /financial/refund/{transaction_hash}` (§4.3) and the status endpoint
 * `GET /financial/refund/{transaction_hash}/status`, whose shape the spec does not show: the mock
 * answers the envelope with the latest refund in `data` (DESIGN §6 reads `data.status`). Its status
 * moves `requested` (for the scripted number of polls) → `success` (one poll) → `completed`, or
 * `requested` → `failed` when `refundOutcome` scripts a failure. `requested` and `success` are the
 * active states of spec §3: a new request on either answers 200 with that refund.
 *
 * @module
 */

import { brDateTime } from '../clock';
import { envelope, errorMessage, unprocessable } from '../respond';
import type { Route } from '../router';
import { type MockState, type RefundRecord, randomId } from '../state';
import { laravelInput, validate } from '../validation/laravel';
import { refundRules } from '../validation/rules';

const ACTIVE = new Set(['requested', 'success']);

/** Scripts how refunds of a transaction end: the active one and those requested later. */
export function planRefund(
  state: MockState,
  transactionHash: string,
  outcome: 'completed' | 'failed',
  polls = state.defaultRefundPolls,
): void {
  state.refundPlans.set(transactionHash, { outcome, polls });
  for (const r of state.transactions.get(transactionHash)?.records ?? []) {
    if (ACTIVE.has(r.refund.status)) Object.assign(r, { outcome, polls });
  }
}

/** One status poll of an active refund: the status it shows from now on. */
function advance(record: RefundRecord): void {
  if (!ACTIVE.has(record.refund.status)) return;
  record.seen += 1;
  if (record.seen <= record.polls) return;
  const next =
    record.outcome === 'completed' && record.refund.status === 'requested'
      ? 'success'
      : record.outcome;
  record.refund.status = next;
  record.refund.updated_at = brDateTime();
}

/** Refund routes. */
export const refundRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/financial/refund/:hash',
    auth: 'user',
    async handle({ params, body, state, apiBase }) {
      const trx = state.transactions.get(params.hash!);
      if (!trx) return errorMessage(404, 'Transaction not found.');
      const input = laravelInput(body ?? {}) as Record<string, unknown>;
      const errors = await validate(
        input,
        refundRules((code) => state.users.has(code)),
      );
      if (errors) return unprocessable(errors);
      const active = trx.records.find((r) => ACTIVE.has(r.refund.status));
      if (active) {
        return envelope(active.refund, 'An active refund already exists for this transaction.');
      }
      const now = brDateTime();
      const plan = state.refundPlans.get(trx.hash) ?? {
        outcome: 'completed' as const,
        polls: state.defaultRefundPolls,
      };
      trx.records.push({
        refund: {
          hash: randomId('rfd'),
          transaction_hash: trx.hash,
          status: 'requested',
          amount: trx.amount,
          observation: typeof input.observation === 'string' ? input.observation : '',
          created_at: now,
          updated_at: now,
        },
        ...plan,
        seen: 0,
      });
      const location = `${apiBase}/financial/refund/${encodeURIComponent(trx.hash)}/status`;
      return envelope(
        { transaction_hash: trx.hash },
        'Refund request accepted for processing.',
        202,
        { location },
        'processing',
      );
    },
  },
  {
    method: 'GET',
    pattern: '/financial/refund/:hash',
    auth: 'user',
    handle({ params, state }) {
      const trx = state.transactions.get(params.hash!);
      if (!trx) return errorMessage(404, 'Transaction not found.');
      return envelope(
        trx.records.map((r) => r.refund),
        'Refunds retrieved successfully.',
      );
    },
  },
  {
    method: 'GET',
    pattern: '/financial/refund/:hash/status',
    auth: 'user',
    handle({ params, state }) {
      const latest = state.transactions.get(params.hash!)?.records.at(-1);
      if (!latest) return errorMessage(404, 'No refund found for this transaction.');
      advance(latest);
      return envelope({ ...latest.refund }, 'Refund status retrieved successfully.');
    },
  },
];
