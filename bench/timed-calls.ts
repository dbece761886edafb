/**
 * The calls the "Calls" table times, shared by `run.ts` (which reports them) and `calls-worker.ts`
 * (which makes them, one variant to a process): both must agree on what each key calls.
 */

import type { PartnerClient } from 'partner-sdk';

const { JUDGED_CALLS } = (await import(
  new URL('./measure.ts', import.meta.url).href
)) as typeof import('./measure');

/** One row of the calls table before it is measured. */
export interface TimedCall {
  name: string;
  /** The path under the base URL that the raw-fetch and ky variants ask for. */
  path: string;
  sdk: (client: PartnerClient) => PromiseLike<unknown>;
  /** Calls per variant per round at c=1 (c=32 uses twice as many). */
  calls: number;
  /** Whether the per-call budget is judged on this call. */
  target: boolean;
}

/** The key a worker is told, naming the call to time. */
export type TimedCallKey = 'list' | 'retrieve' | 'anticipations' | 'refundStatus';

/** Every timed call by key, in the table's order. */
export const TIMED_CALLS: Record<TimedCallKey, TimedCall> = {
  list: { ...JUDGED_CALLS.list, calls: 300, target: true },
  retrieve: { ...JUDGED_CALLS.retrieve, calls: 1_000, target: true },
  anticipations: {
    name: 'anticipations.list (100)',
    path: '/financial/anticipation?per_page=100',
    sdk: (client) => client.anticipations.list({ per_page: 100 }),
    calls: 300,
    target: false,
  },
  refundStatus: {
    name: 'refunds.retrieveStatus',
    path: '/financial/refund/tx_0001/status',
    sdk: (client) => client.refunds.retrieveStatus('tx_0001'),
    calls: 400,
    target: false,
  },
};
