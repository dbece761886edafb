// A partner's file importing every entry point of the installed package. `npm run test:runtimes`
// type-checks it with moduleResolution node16 (as ESM `.mts` and as CJS `.cts`), nodenext, bundler
// and node10, strict with exactOptionalPropertyTypes, in a project without the optional peers but
// msw (whose entry point this file imports): `partner-sdk/bullmq` needs no `bullmq` to type-check.
import {
  APIError,
  type Page,
  type PagePromise,
  PartnerClient,
  type Product,
  type RefundRequestResult,
  UnprocessableEntityError,
} from 'partner-sdk';
import { requestRefunds } from 'partner-sdk/bulk';
import {
  type ProcessorJob,
  type QueueJobResult,
  type RateLimitedQueue,
  type RefundJobData,
  refundProcessor,
} from 'partner-sdk/bullmq';
import { type RedisClient, RedisTokenStore } from 'partner-sdk/redis';
import {
  createMockPartnerApi,
  type MockPartnerApi,
  subscriptionEndedEvent,
} from 'partner-sdk/testing';
import { mswHandlers } from 'partner-sdk/testing/msw';
import {
  createWebhookHandler,
  parseWebhookEvent,
  secretVerifier,
  type WebhookEvent,
} from 'partner-sdk/webhooks';

export async function integration(redis: RedisClient): Promise<string[]> {
  const mock: MockPartnerApi = createMockPartnerApi();
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    clientId: mock.credentials.clientId,
    clientSecret: mock.credentials.clientSecret,
    tokenStore: new RedisTokenStore(redis, { prefix: 'app:' }),
  });
  const handlers: unknown[] = mswHandlers(mock);

  const list: PagePromise<Product> = client.products.list({ per_page: 10 });
  const first: Page<Product> = await list;
  const names: string[] = first.data.map((product) => product.name ?? product.hash);
  for await (const product of client.products.list()) names.push(product.hash);

  const seller = client.forUser(mock.sellers.person.publicToken);
  const result: RefundRequestResult = await seller.refunds.request('tx_1', { reason: 'asked' });
  const status = result.kind === 'accepted' ? result.statusUrl : result.refund.status;

  const { response } = await client.products.retrieve('prd_1').withResponse();
  try {
    await seller.refunds.list('tx_1');
  } catch (err) {
    if (err instanceof UnprocessableEntityError) names.push(...Object.keys(err.fieldErrors));
    else if (err instanceof APIError) names.push(String(err.status));
  }

  const event: WebhookEvent = parseWebhookEvent(JSON.stringify(subscriptionEndedEvent()));
  return [...names, String(status), String(response.status), event.event, String(handlers.length)];
}

/** A refund cohort run in this process, and a BullMQ processor for the same refunds. */
export async function bulk(
  client: PartnerClient,
  queue: RateLimitedQueue,
): Promise<(job: ProcessorJob<RefundJobData>) => Promise<QueueJobResult>> {
  const summary = await requestRefunds(client, ['tx_1', 'tx_2'], {
    params: { reason: 'cohort' },
  });
  if (summary.failed > 0) throw new Error(`${summary.failed} refunds failed`);
  return refundProcessor(client, { queue });
}

/**
 * Settings read from the environment as the README's quick start passes them, each a
 * `string | undefined` (an unset one is read as absent), also under exactOptionalPropertyTypes.
 */
export function fromEnvironment(env: Record<string, string | undefined>) {
  const client = new PartnerClient({
    baseUrl: env.PARTNER_API_BASE_URL,
    clientId: env.PARTNER_API_CLIENT_ID,
    clientSecret: env.PARTNER_API_CLIENT_SECRET,
  });
  const tokenOnly = new PartnerClient({ clientToken: env.PARTNER_API_CLIENT_TOKEN });
  const webhooks = createWebhookHandler({
    on: {},
    verify: secretVerifier({ secret: env.WEBHOOK_TOKEN, query: 'token' }),
  });
  return { client, tokenOnly, webhooks };
}

/**
 * A partner's factory handing its own optional settings on, each possibly `undefined`: the
 * client's time-outs and logger (and a `withOptions` of them), and the receiver's.
 */
export function withOwnSettings(settings: {
  timeout?: number;
  logger?: Console;
  handlerTimeoutMs?: number;
}) {
  const client = new PartnerClient({
    clientToken: 'tok',
    timeout: settings.timeout,
    logger: settings.logger,
  });
  const slower = client.withOptions({ timeout: settings.timeout });
  const webhooks = createWebhookHandler({
    on: {},
    logger: settings.logger,
    handlerTimeoutMs: settings.handlerTimeoutMs,
  });
  return { client, slower, webhooks };
}

/** The same for a bulk job and a shared token store: a job's own optional settings handed on. */
export function jobWithOwnSettings(
  client: PartnerClient,
  redis: RedisClient,
  settings: { concurrency?: number; signal?: AbortSignal; prefix?: string },
) {
  const tokenStore = new RedisTokenStore(redis, { prefix: settings.prefix });
  const job = requestRefunds(client, ['tx_1'], {
    concurrency: settings.concurrency,
    signal: settings.signal,
  });
  return { tokenStore, job };
}

/** A partner's wrapper handing its own optional signal and time-out on to a call. */
export function firstProducts(
  client: PartnerClient,
  signal?: AbortSignal,
  timeout?: number,
): PagePromise<Product> {
  return client.products.list({ per_page: 10 }, { signal, timeout });
}
