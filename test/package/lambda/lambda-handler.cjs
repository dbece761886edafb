// The same Lambda handler as lambda-handler.mjs, written with `require` (as a CommonJS codebase, or tsc's
// `module: commonjs` output, hands it to the bundler): the bundler then takes the package's CJS
// build.
const { PartnerClient } = require('partner-sdk');
const { createWebhookHandler } = require('partner-sdk/webhooks');

const client = new PartnerClient({ logLevel: 'off' });
const receiver = createWebhookHandler({
  logLevel: 'off',
  on: {
    subscription_ended: async () => {
      await client.products.list({ per_page: 1 });
    },
  },
});

exports.handler = async (event) => {
  if (event.rawPath === '/products') {
    const page = await client.products.list({ per_page: 2 });
    return { statusCode: 200, body: JSON.stringify(page.data.map((product) => product.hash)) };
  }
  const delivery = new Request(`https://lambda.invalid${event.rawPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: event.body,
  });
  const response = await receiver.fetch(delivery);
  return { statusCode: response.status, body: await response.text() };
};
