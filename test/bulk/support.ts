/** A mock service and clients for the bulk tests (the kit's `.fetch` face: no socket). */

import { type RequestRefundsOptions, requestRefunds } from 'partner-sdk/bulk';
import { createMockPartnerApi, type MockPartnerApiSeed } from 'partner-sdk/testing';
import { vi } from 'vitest';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';

export function setup(seed: MockPartnerApiSeed = {}) {
  const mock = createMockPartnerApi(seed);
  // The kit's pre-issued client token is not enumerable, so the spread of its credentials leaves
  // it out: given here, no login is among the requests the tests count.
  const { client, seller } = kitClients(mock, { clientToken: mock.credentials.clientToken });
  /** POSTs of refund requests the mock received, per transaction. */
  const refundPosts = (hash?: string) => refundPostsTo(mock, hash);
  /** The refunds the mock holds for a transaction (read without touching the request log's meaning). */
  const refundsOf = (hash: string) => seller.refunds.list(hash);
  return { mock, client, seller, refundPosts, refundsOf };
}

/** Every value of an async iterable, in order. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}

/**
 * Refunds `count` fresh transactions with `requestRefunds` against the kit limited to `rate` and
 * `burst`, on fake time (the caller restores real timers after each test): the job's summary, the
 * virtual seconds it took, the share of requests the kit refused, and the transactions refunded
 * more than once.
 */
export async function pacedRefunds(
  count: number,
  rate: number,
  burst: number,
  options: RequestRefundsOptions = {},
  /** Every how many items one is a transaction the service does not know (answered 404). */
  unknownEvery = 0,
) {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
  });
  const { mock, seller } = setup({ latencyMs: 3 });
  const hashes = Array.from({ length: count }, (_, index) =>
    unknownEvery > 0 && index % unknownEvery === 0 ? `trx_unknown${index}` : mock.addTransaction(),
  );
  mock.setRateLimit({ requestsPerSecond: rate, burst });
  mock.clearRequests();
  const started = performance.now();
  let summary: Awaited<ReturnType<typeof requestRefunds>> | undefined;
  const job = requestRefunds(seller, hashes, { concurrency: 4, ...options }).then((s) => {
    summary = s;
  });
  // Virtual time moves in small steps; every timer within one fires at its own time.
  while (!summary) await vi.advanceTimersByTimeAsync(10);
  await job;
  const seconds = (performance.now() - started) / 1000;
  const { requests, rateLimited } = mock.stats;
  mock.setRateLimit(undefined);
  // The kit's latency is a timer: the refunds are read back in real time.
  vi.useRealTimers();
  const known = hashes.filter((hash) => !hash.startsWith('trx_unknown'));
  const refunds = await Promise.all(known.map((hash) => seller.refunds.list(hash)));
  const twice = refunds.filter((made) => made.length > 1).length;
  return { summary, seconds, requests, refusedShare: rateLimited / requests, twice };
}
