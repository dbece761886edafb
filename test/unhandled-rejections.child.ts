/**
 * Every call path that ends badly, in one process run with `--unhandled-rejections=strict`: each
 * scenario's outcome is caught by the script, so any `unhandledRejection` or `uncaughtException`
 * is one the SDK left. The testing kit and a server that stalls a body run here on loopback.
 * Prints `{ outcomes, unhandled }`. Started by unhandled-rejections.test.ts.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PartnerClient } from 'partner-sdk';
import { requestRefunds, runBulk } from 'partner-sdk/bulk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { createWebhookHandler } from 'partner-sdk/webhooks';
import { subscriptionEndedBody } from './helpers/webhook-bodies';

const unhandled: string[] = [];
process.on('unhandledRejection', (reason) =>
  unhandled.push(`unhandledRejection: ${String(reason)}`),
);
process.on('uncaughtException', (error) => unhandled.push(`uncaughtException: ${String(error)}`));

const mock = createMockPartnerApi({ refundPolls: 0 });
const kit = await mock.listen();
// Answers with its headers and the start of a body, then nothing more.
const stalling = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"data":[');
});
await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
const stallingUrl = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/api/v1`;

const throwing = () => {
  throw new Error('the partner code threw');
};
const throwingLogger = { debug: throwing, info: throwing, warn: throwing, error: throwing };
const throwingProvider = { getTracer: throwing };
const throwingMeters = { getMeter: throwing };
const tracerOfThrowingSpans = {
  getTracer: () => ({ startSpan: throwing, startActiveSpan: throwing }),
};

function client(options: ConstructorParameters<typeof PartnerClient>[0] = {}) {
  return new PartnerClient({
    baseUrl: kit.url,
    clientToken: mock.credentials.clientToken,
    logLevel: 'off',
    ...options,
  });
}
const seller = (options?: ConstructorParameters<typeof PartnerClient>[0]) =>
  client(options).forUser(mock.sellers.person.publicToken);
const abortAfter = (ms: number) => AbortSignal.timeout(ms);

const scenarios: Record<string, () => PromiseLike<unknown>> = {
  'abort during back-off': () => {
    mock.failNext({ status: 503, retryAfter: 2, times: 3, path: '/products' });
    return client().products.list({}, { signal: abortAfter(150) });
  },
  'timeout during back-off': () => {
    mock.failNext({ status: 503, retryAfter: 1, times: 3, path: '/products' });
    return client({ totalTimeout: 1_500 }).products.list();
  },
  'timeout during body read': () =>
    client({ baseUrl: stallingUrl, timeout: 150, maxRetries: 1 }).products.list(),
  'abort during body read': () =>
    client({ baseUrl: stallingUrl, maxRetries: 0 }).products.list({}, { signal: abortAfter(150) }),
  'a walk whose next page fails': async () => {
    for await (const _ of client({ maxRetries: 0 }).products.list({ per_page: 1 })) {
      mock.failNext({ status: 500, times: 3, path: '/products' });
    }
  },
  'a throwing logger, on success, retries and failure': async () => {
    mock.failNext({ status: 503, retryAfter: 0, path: '/products' });
    const logged = client({ logger: throwingLogger, logLevel: 'debug' });
    await logged.products.list().catch(() => undefined);
    mock.failNext({ status: 422, path: '/products' });
    return logged.products.list();
  },
  'a throwing tracer provider': () =>
    client({ telemetry: { tracerProvider: throwingProvider } }).products.list(),
  'a throwing meter provider': () =>
    client({ telemetry: { meterProvider: throwingMeters } }).products.list(),
  'spans that throw': () =>
    client({ telemetry: { tracerProvider: tracerOfThrowingSpans } }).products.list(),
  'a throwing token function': () => client({ clientToken: throwing }).products.list(),
  'a rejecting token function': () =>
    client({ clientToken: () => Promise.reject(new Error('vault down')) }).products.list(),
  'a throwing token store': () =>
    client({
      clientToken: undefined,
      clientId: mock.credentials.clientId,
      clientSecret: mock.credentials.clientSecret,
      tokenStore: { obtain: () => Promise.reject(new Error('store down')) },
    }).products.list(),
  'a login refused while many calls wait': () =>
    Promise.allSettled(
      Array.from({ length: 5 }, () =>
        client({
          clientToken: undefined,
          clientId: 'nobody',
          clientSecret: 'wrong-secret',
        }).products.list(),
      ),
    ),
  'a throwing onStatus': async () => {
    const refunds = seller().refunds;
    return refunds.waitForCompletion(await refunds.request(mock.addTransaction()), {
      interval: 5,
      onStatus: throwing,
    });
  },
  'a poll aborted': async () => {
    const transaction = mock.addTransaction();
    mock.refundOutcome(transaction, 'completed', { polls: 1_000 });
    return seller().refunds.requestAndWait(transaction, undefined, {
      interval: 20,
      signal: abortAfter(100),
    });
  },
  'only withResponse awaited': () => client().products.retrieve('prd_missing').withResponse(),
  // Long enough for the progress timer to report (about every half second), not only the end.
  'a bulk job whose onProgress throws': () =>
    runBulk(
      ['a', 'b', 'c', 'd', 'e', 'f'],
      { key: (key) => key, run: (key) => new Promise((resolve) => setTimeout(resolve, 200, key)) },
      { concurrency: 1, maxConcurrency: 1, onProgress: throwing },
    ),
  'a bulk job aborted during back-off': () => {
    mock.failNext({ status: 503, retryAfter: 2, times: 4 });
    return requestRefunds(seller(), [mock.addTransaction(), mock.addTransaction()], {
      signal: abortAfter(150),
    });
  },
  'receivers whose verify, dedupeKey or onUnknown throw': throwingHooks,
  'a receiver whose handler throws after its answer': async () => {
    const receiver = createWebhookHandler({
      verify: () => true,
      handlerTimeoutMs: 50,
      on: {
        subscription_ended: async () => {
          await new Promise((resolve) => setTimeout(resolve, 150));
          throw new Error('the handler failed late');
        },
      },
      onError: throwing,
      logger: throwingLogger,
    });
    const response = await receiver.fetch(
      new Request('http://localhost/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(subscriptionEndedBody),
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    return response.status;
  },
};

/** Statuses of a delivery to receivers whose `verify`, `dedupeKey` or `onUnknown` throw. */
async function throwingHooks(): Promise<string> {
  const delivery = (body: unknown) =>
    new Request('http://localhost/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const receivers = [
    createWebhookHandler({ verify: throwing, logger: throwingLogger }),
    createWebhookHandler({ verify: () => true, dedupe: true, dedupeKey: throwing }),
    createWebhookHandler({ verify: () => Promise.reject(new Error('verify rejected')) }),
    createWebhookHandler({ verify: () => true, onUnknown: throwing, logger: throwingLogger }),
  ];
  const statuses: number[] = [];
  for (const receiver of receivers) {
    const body = { ...subscriptionEndedBody, event: 'an_event_nobody_handles' };
    statuses.push((await receiver.fetch(delivery(body))).status);
  }
  return statuses.join(' ');
}

const outcomes: Record<string, string> = {};
for (const [name, scenario] of Object.entries(scenarios)) {
  outcomes[name] = await scenario().then(
    (value) => `resolved ${/number|string/.test(typeof value) ? value : ''}`.trim(),
    (error: Error) => error.name,
  );
}
// Late rejections (a lost race, a handler past its answer) surface within a few turns.
await new Promise((resolve) => setTimeout(resolve, 500));
await kit.close();
stalling.closeAllConnections();
stalling.close();
process.stdout.write(`${JSON.stringify({ outcomes, unhandled })}\n`);
