// receiver-worker.ts written the other way Cloudflare documents: the client and the handler made
// once, at the module's top level, from the bindings `cloudflare:workers` exports. Workers refuse
// timers, random values and I/O there, so this shows that making either does none of them (and
// that zod's compiler, whose loading a client starts when made, may start there too).
import { env } from 'cloudflare:workers';
import { PartnerClient } from 'partner-sdk';
import { createWebhookHandler, secretVerifier } from 'partner-sdk/webhooks';

const client = new PartnerClient({
  baseUrl: env.PARTNER_API_BASE_URL,
  clientId: env.PARTNER_API_CLIENT_ID,
  clientSecret: env.PARTNER_API_CLIENT_SECRET,
});

const handler = createWebhookHandler({
  on: {
    subscription_ended: async ({ payload }, { signal }) => {
      if (!payload.product_hash) return;
      const product = await client.products.retrieve(payload.product_hash, { signal });
      await env.ENDED.put(payload.subscription_code, JSON.stringify(product));
    },
  },
  dedupe: true,
  verify: secretVerifier({ secret: env.WEBHOOK_TOKEN, query: 'token' }),
});

export default { fetch: handler.fetch };
