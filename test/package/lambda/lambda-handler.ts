// An AWS Lambda handler as a partner writes one (TypeScript, `import`), bundled by lambda.mjs with
// esbuild for Node as CommonJS and as ESM: a route that lists products, and the rest a webhook
// receiver whose handler calls the API for each delivery. Settings from the environment.
import { PartnerClient } from 'partner-sdk';
import { createWebhookHandler } from 'partner-sdk/webhooks';

interface LambdaEvent {
  rawPath: string;
  body: string;
}

const client = new PartnerClient({ logLevel: 'off' });
const receiver = createWebhookHandler({
  logLevel: 'off',
  on: {
    subscription_ended: async () => {
      await client.products.list({ per_page: 1 });
    },
  },
});

export async function handler(event: LambdaEvent) {
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
