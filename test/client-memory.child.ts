/**
 * A long-lived service's use of the SDK, repeated (the scenario named by `SCENARIO`, `COUNT`
 * times) over an in-process `fetch` that holds nothing, so that only the SDK's memory grows.
 * Prints the heap used after a full collection at four checkpoints. Started with `--expose-gc`
 * by client-memory.test.ts.
 */

import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { PartnerClient } from 'partner-sdk';
import { createWebhookHandler } from 'partner-sdk/webhooks';
import { z } from 'zod';
import { subscriptionEndedBody } from './helpers/webhook-bodies';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const count = Number(process.env.COUNT);
const BASE_URL = 'http://memory.test/api/v1';

let logins = 0;

/** The service: a login answering a token of its own each time, a 202 for a refund, 401 for a bearer it refuses, a 422 naming what it got, a page. */
const service: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const path = new URL(request.url).pathname.replace('/api/v1', '');
  if (request.headers.get('authorization')?.includes('refused')) {
    return Response.json({ message: 'Unauthenticated.' }, { status: 401 });
  }
  if (path === '/auth') {
    logins += 1;
    return Response.json({ client_token: `memory-login-token-${logins}` });
  }
  if (path.startsWith('/financial/refund/')) {
    return new Response(null, { status: 202, headers: { location: `${request.url}/status` } });
  }
  if (path.startsWith('/echo/')) {
    const field = path.slice('/echo/'.length);
    const message = `The ${field} field is invalid.`;
    return Response.json({ message, errors: { [field]: [message] } }, { status: 422 });
  }
  if (path.startsWith('/products/')) {
    return Response.json({ data: { hash: path.slice('/products/'.length), name: 'Course' } });
  }
  return Response.json({
    data: [],
    meta: { current_page: 1, last_page: 1, per_page: 10, total: 0 },
  });
};

function client(options: ConstructorParameters<typeof PartnerClient>[0] = {}) {
  return new PartnerClient({
    baseUrl: BASE_URL,
    clientToken: 'memory-client-token-0001',
    logLevel: 'off',
    maxRetries: 0,
    fetch: service,
    ...options,
  });
}

const shared = client();
const traced = client({
  telemetry: { tracerProvider: new BasicTracerProvider() },
  logLevel: 'debug',
  logger: { debug() {}, info() {}, warn() {}, error() {} },
});
const receiver = createWebhookHandler({
  verify: () => true,
  dedupe: true,
  on: { subscription_ended() {} },
});
const ignore = () => undefined;
const shutdown = new AbortController();

const scenarios: Record<string, (index: number) => Promise<unknown>> = {
  'a seller client per seller': (index) =>
    shared.forUser(`seller-public-token-${index}`).refunds.request(`trx_${index}`),
  'a client per seller': (index) =>
    client().forUser(`seller-public-token-${index}`).refunds.request(`trx_${index}`),
  // A client per seller, each with credentials of its own (a platform whose every seller is a
  // partner of the service), logging in for its one call.
  'a client with credentials of its own per seller': (index) =>
    client({
      clientToken: undefined,
      clientId: `id-${index}`,
      clientSecret: `memory-secret-${index}`,
    })
      .forUser(`seller-public-token-${index}`)
      .refunds.request(`trx_${index}`),
  // A service's one client shared by every request: a few thousand sellers calling again and
  // again, each request through a seller client of its own and a derived client with its time-out.
  'calls of a few thousand sellers on one shared client': (index) =>
    shared
      .withOptions({ timeout: 5_000 + (index % 7) })
      .forUser(`seller-public-token-${index % 3_000}`)
      .products.retrieve(`prd_${index % 3_000}`),
  'refused sellers': (index) =>
    shared.forUser(`refused-public-token-${index}`).products.list().catch(ignore),
  'distinct error bodies': (index) =>
    shared.request({ method: 'POST', path: `/echo/field_${index}`, body: {} }).catch(ignore),
  'distinct URLs, traced and logged': (index) =>
    traced.products
      .retrieve(`prd_${index}`)
      .then(() => traced.request({ method: 'GET', path: `/x/${index}` })),
  'one shutdown signal for every call': () => shared.products.list({}, { signal: shutdown.signal }),
  'a schema built per raw call': (index) =>
    shared.request({
      method: 'GET',
      path: '/products',
      schema: z.looseObject({
        data: z.array(z.looseObject({ [`field_${index}`]: z.optional(z.string()) })),
      }),
    }),
  'webhook deliveries': (index) =>
    receiver.fetch(
      new Request('http://localhost/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...subscriptionEndedBody,
          metadata: { ...subscriptionEndedBody.metadata, request_id: `req_${index}` },
        }),
      }),
    ),
};

const scenario = scenarios[process.env.SCENARIO ?? ''];
if (!scenario) throw new Error(`no scenario ${process.env.SCENARIO}`);
const heapMb: number[] = [];
for (let index = 1; index <= count; index++) {
  await scenario(index);
  if (index % (count / 4) === 0) {
    // Node's fetch frees each Request's abort wiring in a FinalizationRegistry callback, which runs
    // only on a later turn of the event loop, after a collection: a loop of calls that never
    // yields to it would count those as kept.
    for (let turn = 0; turn < 3; turn++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    gc();
    heapMb.push(Math.round((process.memoryUsage().heapUsed / 2 ** 20) * 100) / 100);
  }
}
process.stdout.write(`${JSON.stringify({ heapMb })}\n`);
