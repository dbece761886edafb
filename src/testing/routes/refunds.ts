/**
 * Refunds: `POST /financial/refund/{transaction_hash}` (§4.2, 202 + `Location`, or 200 with the
 * active refund), `GET /financial/refund/{transaction_hash}` (§4.3) and the status endpoint
 * `GET /financial/refund/{transaction_hash}/status`, whose shape the spec does not show: the mock
 * answers the envelope with the latest refund in `data` (DESIGN §6 reads `data.status`), and that
 * status moves from `requested` to the scripted outcome after the scripted number of polls.
 *
 * @module
 */

import { brDateTime } from '../clock';
import { envelope, errorMessage, unprocessable } from '../respond';
import type { Route } from '../router';
import { type MockState, type RefundRecord, randomId } from '../state';
import { validateRequest } from '../validation';

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

function advance(record: RefundRecord): void {
  if (!ACTIVE.has(record.refund.status)) return;
  record.seen += 1;
  if (record.seen > record.polls) {
    record.refund.status = record.outcome;
    record.refund.updated_at = brDateTime();
  }
}

/** Refund routes. */
export const refundRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/financial/refund/:hash',
    auth: 'client',
    async handle({ params, body, state, apiBase }) {
      const trx = state.transactions.get(params.hash!);
      if (!trx) return errorMessage(404, 'Transaction not found.');
      const input = (body ?? {}) as Record<string, unknown>;
      const errors = await validateRequest('requestRefund', input);
      if (errors) return unprocessable(errors);
      if (input.user_id !== undefined && !state.users.has(String(input.user_id))) {
        return unprocessable({ user_id: ['The selected user id is invalid.'] });
      }
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
    auth: 'client',
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
    auth: 'client',
    handle({ params, state }) {
      const latest = state.transactions.get(params.hash!)?.records.at(-1);
      if (!latest) return errorMessage(404, 'No refund found for this transaction.');
      advance(latest);
      return envelope({ ...latest.refund }, 'Refund status retrieved successfully.');
    },
  },
];
