/**
 * A partner's one-off script: makes a client, makes one call (the scenario named by `SCENARIO`),
 * prints what became of it and what still keeps the event loop alive, and ends without calling
 * `process.exit`. Started by client-exits.test.ts, whose testing kit on loopback it calls (its
 * faults queued there before this starts).
 */

import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { PartnerClient } from 'partner-sdk';

const env = (name: string) => process.env[name] ?? '';
const [transaction] = env('TRANSACTIONS').split(',');

function makeClient(options: ConstructorParameters<typeof PartnerClient>[0] = {}) {
  return new PartnerClient({
    baseUrl: env('BASE_URL'),
    clientToken: env('CLIENT_TOKEN'),
    logLevel: 'off',
    telemetry: false,
    ...options,
  });
}
const seller = (options?: ConstructorParameters<typeof PartnerClient>[0]) =>
  makeClient(options).forUser(env('SELLER_TOKEN'));

/** Aborts after `ms`: the partner's own timer, unref'd so that it holds nothing either. */
function abortAfter(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error('stopped by the script')), ms).unref();
  return controller.signal;
}

const scenarios: Record<string, () => Promise<unknown>> = {
  get: () => makeClient().products.list(),
  'get with response': () => makeClient().products.retrieve(env('PRODUCT')).withResponse(),
  refund: () => seller().refunds.request(transaction!),
  login: () =>
    makeClient({
      clientToken: undefined,
      clientId: env('CLIENT_ID'),
      clientSecret: env('SECRET'),
    }).products.list(),
  'token function': () =>
    makeClient({ clientToken: async () => env('CLIENT_TOKEN') }).products.list(),
  // A token store of the partner's own, waiting on another process's login that does not come.
  'given up waiting for a token store': () =>
    makeClient({
      clientToken: undefined,
      clientId: env('CLIENT_ID'),
      clientSecret: env('SECRET'),
      timeout: 5_000,
      tokenStore: { obtain: () => new Promise<string>(() => {}) },
    }).products.list({}, { signal: abortAfter(150) }),
  'failed after retries': () => makeClient({ maxRetries: 2 }).products.list(),
  'timed out': () => makeClient({ timeout: 150, maxRetries: 0 }).products.list(),
  'timed out after retries': () =>
    makeClient({ timeout: 150, maxRetries: 1, totalTimeout: 5_000 }).products.list(),
  'Retry-After beyond the total timeout': () =>
    makeClient({ maxRetries: 2, totalTimeout: 400 }).products.list(),
  'aborted in flight': () => makeClient().products.list({}, { signal: abortAfter(150) }),
  'aborted during back-off': () =>
    makeClient({ maxRetries: 2 }).products.list({}, { signal: abortAfter(300) }),
  'walk broken early': async () => {
    for await (const product of makeClient().products.list({ per_page: 1 })) return product.hash;
  },
  'wait finished': () =>
    seller().refunds.requestAndWait(transaction!, undefined, { interval: 20, maxInterval: 40 }),
  'wait timed out': async () => {
    const client = seller();
    return client.refunds.waitForCompletion(await client.refunds.request(transaction!), {
      interval: 20,
      timeout: 300,
    });
  },
  'wait aborted': async () => {
    const client = seller();
    return client.refunds.waitForCompletion(await client.refunds.request(transaction!), {
      interval: 500,
      signal: abortAfter(200),
    });
  },
  'export waited': async () => {
    const client = seller();
    const started = await client.statements.export({
      format: 'csv',
      filter: { betweenDates: { start: '2026-01-01', end: '2026-01-31' } },
    });
    return client.statements.waitForExport(started, { interval: 20 });
  },
  'debug log and telemetry': () =>
    makeClient({
      logLevel: 'debug',
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      telemetry: { tracerProvider: new BasicTracerProvider() },
    }).products.list(),
};

const scenario = scenarios[env('SCENARIO')];
if (!scenario) throw new Error(`no scenario ${env('SCENARIO')}`);
const outcome = await scenario().then(
  () => 'resolved',
  (error: Error) => `${error.name}`,
);
// What holds the loop once the call has settled, but sockets: Node's fetch keeps its idle ones
// unref'd and closes an aborted one a few turns later (the parent bounds the exit for those).
await new Promise((resolve) => setImmediate(resolve));
const holding = process
  .getActiveResourcesInfo()
  .filter((kind) => kind !== 'PipeWrap' && kind !== 'TCPSocketWrap');
process.stdout.write(`${JSON.stringify({ outcome, holding })}\n`);
