// A Cloudflare Worker receiving the service's webhooks with the Fetch-standard `handler.fetch`.
// `GET /received` answers what it handled, so run.mjs can check that the event got through.
import { createWebhookHandler } from 'partner-sdk/webhooks';

const received = [];
const handler = createWebhookHandler({
  on: {
    subscription_ended: (event) => {
      received.push(event.payload.subscription_code);
    },
  },
  dedupe: true,
  verify: ({ url }) => url.searchParams.get('token') === 'workerd-webhook-token',
});

export default {
  fetch(request) {
    if (new URL(request.url).pathname === '/received') return Response.json(received);
    return handler.fetch(request);
  },
};
