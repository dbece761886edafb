/**
 * A cache between the partner and the service (a shared cache that keeps answers it should not)
 * must never turn a refund's reconciliation into a second refund: the read after a lost answer
 * asks for the service's own answer, so a kept "no refund yet" is not taken for the truth.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { PartnerClient } from '../../src/index';
import { createMockPartnerApi } from '../../src/testing/index';
import { startCachingProxy } from '../helpers/caching-proxy';
import { startLossyProxy } from '../helpers/lossy-proxy';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('a refund request behind a cache', () => {
  it('reconciles a lost answer with a read the cache cannot answer from a kept copy', async () => {
    const mock = createMockPartnerApi();
    const server = await mock.listen();
    closers.push(() => server.close());
    const transaction = mock.addTransaction(5000);
    mock.refundOutcome(transaction, 'completed', { polls: 0 });
    const headers = {
      'x-api-client-token': mock.credentials.clientToken,
      authorization: `Bearer ${mock.sellers.person.publicToken}`,
    };
    let lose = 1;
    const lossy = await startLossyProxy(
      server.url,
      (method) => (method === 'POST' && lose-- > 0 ? 'reset-after' : 'relay'),
      async () => {
        // While the answer is lost, its refund completes: a blind repeat would make another.
        const status = `${server.url}/financial/refund/${transaction}/status`;
        for (let poll = 0; poll < 2; poll++) await (await fetch(status, { headers })).arrayBuffer();
      },
    );
    closers.push(() => lossy.close());
    const cache = await startCachingProxy(lossy.baseUrl);
    closers.push(() => cache.close());
    // Someone read the transaction's refunds through the cache before: it keeps "none".
    const listed = await fetch(`${cache.baseUrl}/financial/refund/${transaction}`, { headers });
    expect(await listed.json()).toMatchObject({ data: [] });

    const client = new PartnerClient({
      baseUrl: cache.baseUrl,
      clientToken: mock.credentials.clientToken,
      maxRetries: 2,
      logLevel: 'off',
    });
    const result = await client
      .forUser(mock.sellers.person.publicToken)
      .refunds.request(transaction);

    expect(result).toMatchObject({
      kind: 'existing',
      recovered: true,
      refund: { status: 'completed' },
    });
    const refunds = await fetch(`${server.url}/financial/refund/${transaction}`, { headers });
    expect(((await refunds.json()) as { data: unknown[] }).data).toHaveLength(1);
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
    const client = new PartnerClient({
      baseUrl: cache.baseUrl,
      clientToken: mock.credentials.clientToken,
      logLevel: 'off',
    });
    const seller = client.forUser(mock.sellers.person.publicToken);
    await seller.refunds.request(transaction);

    const final = await seller.refunds.waitForCompletion(transaction, {
      interval: 1,
      timeout: 5_000,
    });

    expect(final.status).toBe('completed');
    expect(cache.seen.filter((line) => line.endsWith('(cached)'))).toEqual([]);
  });
});
