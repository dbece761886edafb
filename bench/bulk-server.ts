/**
 * The bulk row's service: the testing kit (`partner-sdk/testing`, built) on loopback in a child
 * process, rate-limited and slowed as asked, with `count` fresh transactions. Its own process, so
 * that serving never shares the measured job's event loop.
 *
 * Started by `bench/bulk.ts` through `fork`: it answers `{ url, credentials, sellerToken, hashes }`
 * over IPC; asked `{ type: 'rate', requestsPerSecond }`, changes its limit; asked for `stats`, counts the requests, the 429s and the refunds per transaction.
 */

import { createMockPartnerApi } from 'partner-sdk/testing';

interface Start {
  count: number;
  requestsPerSecond: number;
  /** The bucket's size; the kit's default (a second's worth) when absent. */
  burst?: number;
  latencyMs: number;
}

async function main(): Promise<void> {
  const start = await new Promise<Start>((resolve) =>
    process.once('message', (m) => resolve(m as Start)),
  );
  const mock = createMockPartnerApi({ latencyMs: start.latencyMs });
  const hashes = Array.from({ length: start.count }, () => mock.addTransaction());
  const server = await mock.listen();
  mock.setRateLimit({ requestsPerSecond: start.requestsPerSecond, burst: start.burst });
  mock.clearRequests();
  process.send?.({
    url: server.url,
    clientToken: mock.credentials.clientToken,
    sellerToken: mock.sellers.person.publicToken,
    hashes,
  });
  process.on('message', async (message) => {
    const { type, requestsPerSecond } = message as { type?: string; requestsPerSecond?: number };
    // A limit that changes mid-job: a fresh bucket at the new rate, the burst kept.
    if (type === 'rate')
      mock.setRateLimit({ requestsPerSecond: requestsPerSecond!, burst: start.burst });
    if (type !== 'stats') return;
    const { requests, rateLimited } = mock.stats;
    mock.setRateLimit(undefined);
    let duplicates = 0;
    let refunded = 0;
    for (const hash of hashes) {
      const answer = await mock.fetch(`${mock.baseUrl}/financial/refund/${hash}`, {
        headers: {
          'x-api-client-token': mock.credentials.clientToken,
          authorization: `Bearer ${mock.sellers.person.publicToken}`,
        },
      });
      const refunds = ((await answer.json()) as { data: unknown[] }).data.length;
      if (refunds > 0) refunded++;
      if (refunds > 1) duplicates += refunds - 1;
    }
    process.send?.({ requests, rateLimited, duplicates, refunded });
    await server.close();
  });
  process.on('disconnect', () => process.exit(0));
}

if (process.send) await main();
