// The Worker's src/index.ts: it receives the service's webhooks and calls the API for each.
import { PartnerClient } from 'partner-sdk';
import { createWebhookHandler, secretVerifier, type WebhookHandler } from 'partner-sdk/webhooks';

interface Env {
  PARTNER_API_BASE_URL: string;
  PARTNER_API_CLIENT_ID: string;
  PARTNER_API_CLIENT_SECRET: string;
  WEBHOOK_TOKEN: string;
  // A KV namespace binding (`KVNamespace` in @cloudflare/workers-types).
  ENDED: { put(key: string, value: string): Promise<void> };
}

// Built from the bindings on the first request (process.env has them only under nodejs_compat),
// then kept by the isolate: later deliveries reuse the client's token and the handler's memory of
// duplicates.
let handler: WebhookHandler | undefined;

function receiver(env: Env): WebhookHandler {
  const client = new PartnerClient({
    baseUrl: env.PARTNER_API_BASE_URL,
    clientId: env.PARTNER_API_CLIENT_ID,
    clientSecret: env.PARTNER_API_CLIENT_SECRET,
  });
  return createWebhookHandler({
    on: {
      // Awaited before the answer: a call that fails makes the delivery a 500, which the
      // platform delivers again.
      subscription_ended: async ({ payload }, { signal }) => {
        if (!payload.product_hash) return;
        const product = await client.products.retrieve(payload.product_hash, { signal });
        await env.ENDED.put(payload.subscription_code, JSON.stringify(product));
      },
    },
    dedupe: true,
    verify: secretVerifier({ secret: env.WEBHOOK_TOKEN, query: 'token' }),
  });
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    handler ??= receiver(env);
    return handler.fetch(request);
  },
};
