// A Cloudflare Worker using the SDK as a partner would: one client for the isolate, built from the
// Worker's bindings on the first request and reused by later ones. Each request logs in if it must,
// lists products, and requests a refund through the seller's client. Bundled by run.mjs from the
// installed tarball (as wrangler bundles a Worker) and run inside workerd.
import { PartnerClient } from 'partner-sdk';

let client;

export default {
  async fetch(_request, env) {
    client ??= new PartnerClient({
      baseUrl: env.BASE_URL,
      clientId: env.CLIENT_ID,
      clientSecret: env.CLIENT_SECRET,
      logLevel: 'off',
    });
    const page = await client.products.list({ per_page: 2 });
    const refund = await client
      .forUser(env.SELLER_TOKEN)
      .refunds.request(env.TRANSACTION_HASH, { reason: 'workerd' });
    return Response.json({ products: page.data.map((p) => p.hash), refund: refund.kind });
  },
};
