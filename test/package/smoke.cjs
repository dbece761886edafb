// Runtime smoke test, CommonJS side: the same calls as smoke.mjs through `require`, plus the
// promise that `instanceof` holds across the CJS and ESM copies of the package.
const assert = require('node:assert/strict');
const {
  APIError,
  ConflictError,
  NotFoundError,
  PartnerClient,
  PartnerError,
} = require('partner-sdk');
const { createMockPartnerApi, subscriptionEndedEvent } = require('partner-sdk/testing');
const { RedisStoreError, RedisTokenStore } = require('partner-sdk/redis');
const { createWebhookHandler, parseWebhookEvent } = require('partner-sdk/webhooks');

async function main() {
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
    const result = await seller.refunds.request(mock.transactions.refundable[0], {
      reason: 'smoke',
    });
    assert.equal(result.kind, 'accepted');

    // Errors are typed, and the ESM copy's classes recognise the CJS copy's errors.
    const esm = await import('partner-sdk');
    await assert.rejects(
      client.products.retrieve('prd_missing'),
      (err) =>
        err instanceof NotFoundError &&
        err instanceof PartnerError &&
        err instanceof esm.NotFoundError &&
        err.status === 404,
    );
    // And the other way, as a mixed project's older CommonJS code checks what newer ESM code
    // threw: the ESM client's errors match the CJS classes, siblings kept apart.
    const esmClient = new esm.PartnerClient({
      baseUrl: server.url,
      clientToken: mock.credentials.clientToken,
      logLevel: 'off',
    });
    await assert.rejects(
      esmClient.products.retrieve('prd_missing'),
      (err) =>
        err instanceof NotFoundError &&
        err instanceof APIError &&
        err instanceof PartnerError &&
        !(err instanceof ConflictError) &&
        !(err instanceof esm.ConflictError),
    );

    // A webhook delivery: parsed directly, and through the Fetch-standard handler.
    const body = JSON.stringify(subscriptionEndedEvent());
    assert.equal(parseWebhookEvent(body).event, 'subscription_ended');
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

    // A handler past its time limit reaches onError as a PartnerError that the ESM copy's class
    // recognises too.
    const esmWebhooks = await import('partner-sdk/webhooks');
    let late;
    const slow = createWebhookHandler({
      handlerTimeoutMs: 50,
      logLevel: 'off',
      onError: (error) => (late = error),
      on: {
        subscription_ended: (_event, { signal }) =>
          new Promise((done) => signal.addEventListener('abort', done)),
      },
    });
    const timedOut = await slow.fetch(
      new Request('http://127.0.0.1/webhooks', { method: 'POST', body }),
    );
    assert.equal(timedOut.status, 500);
    assert.ok(late instanceof esmWebhooks.WebhookTimeoutError, String(late));
    assert.ok(late instanceof PartnerError && late instanceof esm.PartnerError, String(late));

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
  } finally {
    await server.close();
  }
  console.log('cjs smoke ok');
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
