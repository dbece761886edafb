// The testing kit through msw in a CommonJS Jest suite: msw is ESM only, and Jest's own `require`
// loads ESM only when Node runs with `--experimental-vm-modules`, as the getting-started guide
// says. Run by `npm run test:runtimes` with that flag, in the fresh project that installed the
// tarball and msw.
const { setupServer } = require('msw/node');
const { PartnerClient } = require('partner-sdk');
const { createMockPartnerApi } = require('partner-sdk/testing');
const { mswHandlers } = require('partner-sdk/testing/msw');

test('a client call answered by the kit through msw', async () => {
  const mock = createMockPartnerApi();
  const server = setupServer(...mswHandlers(mock));
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      ...mock.credentials,
      logLevel: 'off',
    });
    const page = await client.products.list({ per_page: 2 });
    expect(page.data.map((product) => product.hash)).toEqual([...mock.products.hashes].slice(0, 2));
  } finally {
    server.close();
  }
});
