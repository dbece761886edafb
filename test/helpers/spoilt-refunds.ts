/**
 * The testing kit's service behind a {@link startLossyProxy} that loses or spoils (a `Spoilt`
 * verdict) the answer of the first refund request of each transaction after the service made the
 * refund, and completes that refund meanwhile: a blind repeat would then make a second one (spec §3).
 */

import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { sellerHeaders } from './kit-clients';
import { type LossyProxy, type ProxyVerdict, startLossyProxy } from './lossy-proxy';

export interface SpoiltRefunds {
  mock: MockPartnerApi;
  proxy: LossyProxy;
  /** Refundable transactions of the kit's person seller, 5000 cents each. */
  transactions: string[];
  /** The seller's public token. */
  sellerToken: string;
  /** Refunds the service holds for a transaction, read straight from it. */
  refundsOf(hash: string): Promise<Array<{ status: string; amount: number }>>;
  /** Refund requests (POSTs) that reached the service. */
  posts(): number;
  close(): Promise<void>;
}

/** An answer lost or spoilt after the service acted. */
type AfterActing = Exclude<ProxyVerdict, 'relay' | 'refuse-before'>;

export async function startSpoiltRefunds(how: AfterActing, count = 1): Promise<SpoiltRefunds> {
  const mock = createMockPartnerApi();
  const server = await mock.listen();
  const transactions = Array.from({ length: count }, () => mock.addTransaction(5000));
  for (const hash of transactions) mock.refundOutcome(hash, 'completed', { polls: 0 });
  const headers = sellerHeaders(mock);
  const spoilt = new Set<string>();
  const proxy = await startLossyProxy(
    server.url,
    (method, path) => {
      if (method !== 'POST' || !path.startsWith('/financial/refund/') || spoilt.has(path)) {
        return 'relay';
      }
      spoilt.add(path);
      return how;
    },
    async (_method, path) => {
      // The refund the spoilt answer was about is processed to the end (requested → success →
      // completed: two polls), so that only a reconciliation can keep a repeat from making another.
      for (let poll = 0; poll < 2; poll++) {
        await (await fetch(`${server.url}${path}/status`, { headers })).arrayBuffer();
      }
    },
  );
  return {
    mock,
    proxy,
    transactions,
    sellerToken: mock.sellers.person.publicToken,
    async refundsOf(hash) {
      const response = await fetch(`${server.url}/financial/refund/${hash}`, { headers });
      return ((await response.json()) as { data: Array<{ status: string; amount: number }> }).data;
    },
    posts: () => proxy.seen.filter((line) => line.startsWith('POST /financial/refund/')).length,
    async close() {
      await proxy.close();
      await server.close();
    },
  };
}
