// The testing kit through msw from CommonJS, as a Jest suite (or any CJS test file) would use it:
// `require('partner-sdk/testing/msw')` handing msw a mock made by `require('partner-sdk/testing')`,
// and by the ESM copy of `partner-sdk/testing` (a suite whose helpers load one format, its tests the
// other). Run by `npm run test:runtimes` on Node, in the fresh project that installed the tarball
// and msw.
const assert = require('node:assert/strict');
const { setupServer } = require('msw/node');
const { APIConnectionError, PartnerClient } = require('partner-sdk');
const { createMockPartnerApi } = require('partner-sdk/testing');
const { mswHandlers } = require('partner-sdk/testing/msw');

/** Lists products through msw, then checks that a dropped connection reaches the client as one. */
async function throughMsw(mock) {
  const server = setupServer(...mswHandlers(mock));
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      clientId: mock.credentials.clientId,
      clientSecret: mock.credentials.clientSecret,
      logLevel: 'off',
      maxRetries: 0,
    });
    const page = await client.products.list({ per_page: 2 });
    assert.deepEqual(
      page.data.map((product) => product.hash),
      [...mock.products.hashes].slice(0, 2),
    );
    mock.dropNext();
    await assert.rejects(client.products.list(), (err) => err instanceof APIConnectionError);
  } finally {
    server.close();
  }
}

async function main() {
  await throughMsw(createMockPartnerApi());
  const esm = await import('partner-sdk/testing');
  await throughMsw(esm.createMockPartnerApi());
  console.log('msw cjs ok');
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
