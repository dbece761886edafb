/**
 * A cache between the partner and the service (a shared cache that keeps answers it should not)
 * must never turn a refund's reconciliation into a second refund: the read after a lost answer
 * asks for the service's own answer, so a kept "no refund yet" is not taken for the truth.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing/index';
import { startCachingProxy } from '../helpers/caching-proxy';
import { kitClientsAt, sellerHeaders } from '../helpers/kit-clients';
import { startSpoiltRefunds } from '../helpers/spoilt-refunds';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('a refund request behind a cache', () => {
  it('reconciles a lost answer with a read the cache cannot answer from a kept copy', async () => {
    // The first request's answer is lost after the service made the refund, which then completes:
    // a blind repeat would make another.
    const service = await startSpoiltRefunds('reset-after');
    closers.push(() => service.close());
    const [transaction] = service.transactions as [string];
    const cache = await startCachingProxy(service.proxy.baseUrl);
    closers.push(() => cache.close());
    // Someone read the transaction's refunds through the cache before: it keeps "none".
    const headers = sellerHeaders(service.mock);
    const listed = await fetch(`${cache.baseUrl}/financial/refund/${transaction}`, { headers });
    expect(await listed.json()).toMatchObject({ data: [] });

    const { seller } = kitClientsAt(service.mock, cache.baseUrl);
    const result = await seller.refunds.request(transaction);

    expect(result).toMatchObject({
      kind: 'existing',
      recovered: true,
      refund: { status: 'completed' },
    });
    expect(await service.refundsOf(transaction)).toHaveLength(1);
    expect(cache.seen.filter((line) => line.endsWith('(cached)'))).toEqual([]);
  });

  it('waits a refund to its end through a cache that kept its first status', async () => {
    const mock = createMockPartnerApi();
    const server = await mock.listen();
    closers.push(() => server.close());
    const cache = await startCachingProxy(server.url);
    closers.push(() => cache.close());
    const transaction = mock.addTransaction(5000);
    mock.refundOutcome(transaction, 'completed', { polls: 2 });
    const { seller } = kitClientsAt(mock, cache.baseUrl);
    await seller.refunds.request(transaction);

    const final = await seller.refunds.waitForCompletion(transaction, {
      interval: 1,
      timeout: 5_000,
    });

    expect(final.status).toBe('completed');
    expect(cache.seen.filter((line) => line.endsWith('(cached)'))).toEqual([]);
  });
});
