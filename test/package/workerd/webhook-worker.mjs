// A Cloudflare Worker receiving the service's webhooks with the Fetch-standard `handler.fetch`, the
// secret checked by `secretVerifier` as the guides advise, read from the Worker's bindings (there is
// no `process.env` on Workers without `nodejs_compat`) when the first request builds the handler.
// `GET /received` answers what it handled, so run.mjs can check that the event got through.
import { createWebhookHandler, secretVerifier } from 'partner-sdk/webhooks';

const received = [];
let handler;

export default {
  fetch(request, env) {
    if (new URL(request.url).pathname === '/received') return Response.json(received);
    handler ??= createWebhookHandler({
      on: {
        subscription_ended: (event) => {
          received.push(event.payload.subscription_code);
        },
      },
      dedupe: true,
      verify: secretVerifier({ secret: env.WEBHOOK_TOKEN, query: 'token' }),
    });
    return handler.fetch(request);
  },
};
