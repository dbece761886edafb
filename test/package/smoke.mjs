// Runtime smoke test, ESM side: run by `npm run test:runtimes` inside a fresh project that installed
// the packed tarball, on every supported runtime. Plain JS so that Node, Bun and Deno all run it as is.
import assert from 'node:assert/strict';
import {
  NotFoundError,
  PartnerClient,
  PartnerError,
  parseTimestamp,
  WebhookPayloadError,
} from 'partner-sdk';
import { RedisStoreError, RedisTokenStore } from 'partner-sdk/redis';
import { createMockPartnerApi, subscriptionEndedEvent } from 'partner-sdk/testing';
import { createWebhookHandler, parseWebhookEvent } from 'partner-sdk/webhooks';

const mock = createMockPartnerApi();
const server = await mock.listen();
try {
  const client = new PartnerClient({
    baseUrl: server.url,
    clientId: mock.credentials.clientId,
    clientSecret: mock.credentials.clientSecret,
    logLevel: 'off',
  });

  // A real login (POST /auth over the loopback socket), then a product list, page by page.
  const page = await client.products.list({ per_page: 2 });
  assert.equal(mock.stats.logins, 1, 'exactly one login');
  assert.equal(page.data.length, 2);
  const hashes = [];
  for await (const product of client.products.list({ per_page: 2 })) hashes.push(product.hash);
  assert.deepEqual(hashes, [...mock.products.hashes]);

  // A seller's refund request.
  const seller = client.forUser(mock.sellers.person.publicToken);
  const result = await seller.refunds.request(mock.transactions.refundable[0], { reason: 'smoke' });
  assert.equal(result.kind, 'accepted');

  // Errors are typed.
  await assert.rejects(
    client.products.retrieve('prd_missing'),
    (err) => err instanceof NotFoundError && err instanceof PartnerError && err.status === 404,
  );

  // A webhook delivery: parsed directly, and through the Fetch-standard handler.
  const body = JSON.stringify(subscriptionEndedEvent());
  assert.equal(parseWebhookEvent(body).event, 'subscription_ended');
  // Each entry point carries its own copy of the error classes: `instanceof` holds across them.
  assert.throws(
    () => parseWebhookEvent('{"event":'),
    (err) => err instanceof WebhookPayloadError && err instanceof PartnerError,
  );
  let handled;
  const handler = createWebhookHandler({
    on: { subscription_ended: (event) => (handled = event) },
  });
  const response = await handler.fetch(
    new Request('http://127.0.0.1/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }),
  );
  assert.equal(response.status, 200);
  assert.equal(handled?.payload.end_reason, 'completed');

  // partner-sdk/redis over a Redis that is down: the shared token cache falls back to a login
  // from this process (no Redis client library is needed to load the entry point).
  const down = {
    sendCommand: async () => {
      throw new Error('connection refused');
    },
  };
  const logins = mock.stats.logins;
  const shared = new PartnerClient({
    baseUrl: server.url,
    clientId: mock.credentials.clientId,
    clientSecret: mock.credentials.clientSecret,
    logLevel: 'off',
    tokenStore: new RedisTokenStore(down),
  });
  await shared.products.list({ per_page: 1 });
  assert.equal(mock.stats.logins, logins + 1);
  assert.ok(new RedisStoreError('x') instanceof PartnerError);

  // Time-zone arithmetic rests on the runtime's Intl offsets: São Paulo is UTC-3 today and was
  // UTC-2 in the summer of 2018 (daylight saving until 2019).
  assert.equal(parseTimestamp('2024-05-01 12:00:00').toISOString(), '2024-05-01T15:00:00.000Z');
  assert.equal(parseTimestamp('2018-01-10 12:00:00').toISOString(), '2018-01-10T14:00:00.000Z');
} finally {
  await server.close();
}
console.log('esm smoke ok');
