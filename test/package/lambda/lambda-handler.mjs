// An AWS Lambda handler as a partner writes one with `import` (in TypeScript too: a bundler reads
// its imports alike), bundled by lambda.mjs for Node as CommonJS and as ESM: a route that lists
// products, and the rest a webhook receiver whose handler calls the API for each delivery.
// Settings from the environment.
import { PartnerClient } from 'partner-sdk';
import { createWebhookHandler } from 'partner-sdk/webhooks';

const client = new PartnerClient({ logLevel: 'off' });
const receiver = createWebhookHandler({
  logLevel: 'off',
  on: {
    subscription_ended: async () => {
      await client.products.list({ per_page: 1 });
    },
  },
});

/** @param {{ rawPath: string, body: string }} event An API Gateway event, its parts used here. */
export async function handler(event) {
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
}
