// `node --test` runs this file in a process of its own, which ends only once nothing keeps its
// event loop alive: the kits' servers, listened on and closed, must leave nothing behind.
import assert from 'node:assert';
import { test } from 'node:test';
import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';

test('a kit listened on, called and closed leaves the process free to end', async () => {
  const mock = createMockPartnerApi();
  const server = await mock.listen();
  try {
    const client = new PartnerClient({ baseUrl: server.url, ...mock.credentials, logLevel: 'off' });
    const page = await client.products.list({ per_page: 2 });
    assert.strictEqual(page.data.length, 2);
    // A slow answer still pending when the server closes.
    mock.failNext({ delayMs: 60_000 });
    const pending = client.products.list({}, { maxRetries: 0 }).catch((error) => error);
    while (mock.stats.requests < 3) await new Promise((resolve) => setImmediate(resolve));
    await server.close();
    assert.ok((await pending) instanceof Error);
  } finally {
    await server.close();
  }
});
