/**
 * Run by env-proxy.test.ts in a process started as the README says (`NODE_USE_ENV_PROXY=1` and
 * `HTTP_PROXY`): a client made with no `fetch` of its own, from `PARTNER_API_*`, lists products.
 * Prints one JSON line with what it got.
 */

import { PartnerClient } from 'partner-sdk';

const client = new PartnerClient({ logLevel: 'off', maxRetries: 0 });
const page = await client.products.list({ per_page: 2 });
console.log(JSON.stringify({ listed: page.data.length }));
