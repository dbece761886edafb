/**
 * `unlessRefunded` reads each transaction's refunds to decide whether to send one: behind a cache
 * that kept an earlier "no refunds" answer, that read must still reach the service, or a job run
 * again refunds the transaction a second time.
 */

import { requestRefunds } from 'partner-sdk/bulk';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing/index';
import { startCachingProxy } from '../helpers/caching-proxy';
import { kitClientsAt, sellerHeaders } from '../helpers/kit-clients';
import { collect } from './support';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('requestRefunds with unlessRefunded behind a cache', () => {
  it('refuses a transaction refunded since the cache kept its empty list', async () => {
    const mock = createMockPartnerApi();
    const server = await mock.listen();
    closers.push(() => server.close());
    const cache = await startCachingProxy(server.url);
    closers.push(() => cache.close());
    const transaction = mock.addTransaction(5000);
    mock.refundOutcome(transaction, 'completed', { polls: 0 });
    const headers = sellerHeaders(mock);
    // The cache keeps "no refunds"; a first run then refunds the transaction to the end.
    await (await fetch(`${cache.baseUrl}/financial/refund/${transaction}`, { headers })).json();
    const direct = kitClientsAt(mock, server.url).seller;
    await collect(requestRefunds(direct, [transaction]));
    await direct.refunds.waitForCompletion(transaction, { interval: 1 });

    const behindCache = kitClientsAt(mock, cache.baseUrl).seller;
    const again = await collect(
      requestRefunds(behindCache, [transaction], { unlessRefunded: true }),
    );

    expect(again).toEqual([expect.objectContaining({ key: transaction, status: 'failed' })]);
    const refunds = await fetch(`${server.url}/financial/refund/${transaction}`, { headers });
    expect(((await refunds.json()) as { data: unknown[] }).data).toHaveLength(1);
  });
});
