/**
 * A service passes one long-lived signal (its shutdown signal) to every call and bulk job. Over thousands of
 * calls of every kind, settled one after another or many at once, nothing stays attached to it
 * and no MaxListenersExceededWarning is emitted.
 */

import { getEventListeners } from 'node:events';
import { PartnerClient } from 'partner-sdk';
import { requestRefunds } from 'partner-sdk/bulk';
import { createMockPartnerApi, type MockPartnerApi, type MockServer } from 'partner-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

let mock: MockPartnerApi;
let server: MockServer;
let warnings: Error[];
const onWarning = (warning: Error) => warnings.push(warning);

beforeAll(async () => {
  mock = createMockPartnerApi({ refundPolls: 0 });
  server = await mock.listen();
  warnings = [];
  process.on('warning', onWarning);
});
afterAll(async () => {
  process.off('warning', onWarning);
  await server.close();
});

function clients() {
  const client = new PartnerClient({
    baseUrl: server.url,
    clientToken: mock.credentials.clientToken,
    logLevel: 'off',
  });
  return { client, seller: client.forUser(mock.sellers.person.publicToken) };
}

/** One call of the kind `index` picks, with `signal`; resolves once it settled, whatever its end. */
function callOfKind(index: number, signal: AbortSignal): Promise<unknown> {
  const { client, seller } = clients();
  const kind = index % 10;
  if (kind === 0) {
    mock.failNext({ status: 503, retryAfter: 0, path: '/products' });
    return client.products.list({}, { signal });
  }
  if (kind === 1) {
    mock.failNext({ delayMs: 200, path: '/products' });
    return client.products
      .list({}, { signal, timeout: 20, maxRetries: 0 })
      .catch(() => 'timed out');
  }
  if (kind === 2 || kind === 3) {
    return (async () => {
      for await (const product of client.products.list({ per_page: 1 }, { signal })) {
        return product.hash;
      }
    })();
  }
  if (kind === 4) {
    return seller.refunds.requestAndWait(mock.addTransaction(), undefined, { interval: 1, signal });
  }
  if (kind === 5) return seller.refunds.request(mock.addTransaction(), undefined, { signal });
  if (kind === 8) {
    const transaction = mock.addTransaction();
    mock.refundOutcome(transaction, 'completed', { polls: 1_000 });
    return seller.refunds
      .requestAndWait(transaction, undefined, { interval: 5, timeout: 30, signal })
      .catch(() => 'poll timed out');
  }
  if (kind === 6)
    return client.products.retrieve(mock.products.course.hash, { signal }).withResponse();
  if (kind === 9)
    return Promise.resolve(requestRefunds(seller, [mock.addTransaction()], { signal }));
  return client.products.list({}, { signal });
}

const listenersOn = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

it('leaves nothing on a signal shared by 2,000 calls, one after another', async () => {
  const shutdown = new AbortController();
  const before = listenersOn(shutdown.signal);
  const after: number[] = [];
  for (let index = 0; index < 2_000; index++) {
    await callOfKind(index, shutdown.signal);
    after.push(listenersOn(shutdown.signal));
  }
  expect(after.filter((count) => count !== before)).toEqual([]);
  expect(warnings).toEqual([]);
}, 120_000);

it('warns of nothing when 200 calls share the signal at once, and leaves nothing on it', async () => {
  const shutdown = new AbortController();
  const before = listenersOn(shutdown.signal);
  // At once, a call may meet another's fault (two 503s in a row): how each ends does not matter here.
  await Promise.allSettled(
    Array.from({ length: 200 }, (_, index) => callOfKind(index, shutdown.signal)),
  );
  expect(listenersOn(shutdown.signal)).toBe(before);
  expect(warnings).toEqual([]);
}, 60_000);
