// A partner's file importing every entry point of the installed package but `/testing/msw` (in
// `msw.ts`: msw's own types set a higher TypeScript and need the DOM lib). `npm run test:runtimes`
// type-checks it with moduleResolution node16 (as ESM `.mts` and as CJS `.cts`), nodenext, bundler
// and node10, strict with exactOptionalPropertyTypes, on each TypeScript of its matrix, in a
// project without the optional peers but msw: `partner-sdk/bullmq` needs no `bullmq` to type-check.
// Only the platform's own types: what needs `@types/node` is in `node.ts`.
import {
  type AddressParams,
  APIError,
  type Page,
  type PagePromise,
  PartnerClient,
  type Product,
  type RefundRequestResult,
  type SellerClient,
  toFile,
  UnprocessableEntityError,
  type User,
} from 'partner-sdk';
import { FileJournal, requestRefunds, updateOffers } from 'partner-sdk/bulk';
import {
  type BatchQueue,
  enqueueRefunds,
  followBatch,
  type ProcessorJob,
  type ProducerQueue,
  type QueueJobResult,
  type QueueProgress,
  type RateLimitedQueue,
  type RefundJobData,
  refundProcessor,
  type SellerResolver,
} from 'partner-sdk/bullmq';
import {
  fleetPace,
  type RedisClient,
  RedisDedupeStore,
  RedisJournalStore,
  RedisTokenStore,
} from 'partner-sdk/redis';
import {
  createMockPartnerApi,
  deliver,
  type MockPartnerApi,
  subscriptionEndedEvent,
} from 'partner-sdk/testing';
import {
  createWebhookHandler,
  parseWebhookEvent,
  secretVerifier,
  type WebhookEvent,
  type WebhookHandler,
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
  return [...names, String(status), String(response.status), event.event];
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
 * One queue for many sellers: a processor given a function of the job's `seller` (a reference of
 * the partner's own) that answers that seller's client, from the partner's token store; the
 * function typed as the package names it, and written inline.
 */
export function sellerProcessors(
  client: PartnerClient,
  queue: RateLimitedQueue,
  tokens: { get(account: string): Promise<string> },
): Array<(job: ProcessorJob<RefundJobData>) => Promise<QueueJobResult>> {
  const forSeller: SellerResolver = async (account, job, signal) => {
    signal?.throwIfAborted();
    if (job.timestamp > Date.now()) throw new Error(`job ${job.id ?? '?'} from the future`);
    return client.forUser(await tokens.get(account));
  };
  const inline = refundProcessor(async (account) => client.forUser(await tokens.get(account)), {
    queue,
    unlessRefunded: true,
  });
  return [refundProcessor(forSeller, { queue }), inline];
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

const ADDRESS: AddressParams = {
  zip_code: '01310-100',
  city: 'São Paulo',
  state: 'SP',
  country: 'Brasil',
  street: 'Avenida Paulista',
  street_number: '1000',
  neighborhood: 'Bela Vista',
};

/**
 * A seller's photo sent as each kind of file the platform has (`Blob`, bytes, a stream), and a
 * finished statement export downloaded as the platform's `Response`.
 */
export async function filesAndDownloads(
  seller: SellerClient,
  photo: Blob,
  bytes: Uint8Array,
  stream: ReadableStream<Uint8Array>,
): Promise<{ user: User; download: Response }> {
  const profile = {
    name: 'Ana Souza',
    address: ADDRESS,
    cpf: '123.456.789-09',
    birth: '1990-04-01',
  };
  await seller.users.update({ ...profile, avatar: photo });
  await seller.users.update({ ...profile, avatar: stream, emancipated_document: bytes });
  const file: File = await toFile(bytes, 'avatar.png', { type: 'image/png' });
  const user = await seller.users.update({ ...profile, avatar: file });
  const exported = await seller.statements.export({
    format: 'csv',
    filter: { betweenDates: { start: '2026-01-01', end: '2026-01-31' } },
  });
  const finished = await seller.statements.waitForExport(exported, { interval: 1_000 });
  const download: Response = await seller.statements.download(finished);
  return { user, download };
}

/** A receiver behind a Fetch-standard server, with its deliveries deduplicated in Redis. */
export function receiver(redis: RedisClient): (request: Request) => Promise<Response> {
  const handler: WebhookHandler = createWebhookHandler({
    on: {
      subscription_ended: async (event) => {
        await Promise.resolve(event.payload.end_reason);
      },
    },
    dedupe: new RedisDedupeStore(redis, { prefix: 'app:' }),
  });
  return (request) => handler.fetch(request);
}

/** The testing kit on a loopback port, a webhook delivered to a partner's own receiver. */
export async function kitOnLoopback(receiverUrl: URL): Promise<number> {
  const mock = createMockPartnerApi();
  const server = await mock.listen();
  try {
    return await deliver(receiverUrl, subscriptionEndedEvent(), { timeoutMs: 5_000 });
  } finally {
    await server.close();
  }
}

/** A repricing journaled to a file, one to Redis, their outcomes read as they come, at a fleet pace. */
export async function journaledJobs(client: PartnerClient, redis: RedisClient): Promise<number> {
  const store = await FileJournal.open('./offers.journal.jsonl');
  const paced = client.withOptions({ pace: fleetPace(redis, { requestsPerSecond: 5 }) });
  const items = [{ productHash: 'prd_1', offerCode: 'off_1', params: { price: 19_900 } }];
  let succeeded = 0;
  try {
    for await (const outcome of updateOffers(paced, items, {
      journal: { store, job: 'reprice' },
    })) {
      if (outcome.status === 'succeeded') succeeded += 1;
    }
  } finally {
    await store.close();
  }
  const journal = { store: new RedisJournalStore(redis), job: 'cohort' };
  const summary = await requestRefunds(client, ['tx_1'], { journal });
  return succeeded + summary.succeeded;
}

/** A BullMQ producer enqueueing refunds and following its batch (a `Queue` fits both shapes). */
export async function producer(
  queue: ProducerQueue & BatchQueue,
  redis: RedisClient,
): Promise<QueueProgress> {
  const batch = await enqueueRefunds(queue, [{ transactionHash: 'tx_1' }], { redis });
  return followBatch(queue, batch.batchId, { redis, intervalMs: 1_000 });
}
