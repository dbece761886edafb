/**
 * What a guide's snippet may assume, bound to real objects when it runs: a client pointed at the
 * testing kit over loopback HTTP, a seller's public token the kit seeded, a Redis client on the
 * test's own `redis-server`, a BullMQ queue with a worker, an OpenTelemetry provider recording in
 * memory. The partner's own functions and stores (`db`, `endSubscription`, `saveBatch`…) are
 * stand-ins that accept any call. Each snippet gets a fresh kit and a temporary directory.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Queue, Worker } from 'bullmq';
import express from 'express';
import { PartnerClient } from 'partner-sdk';
import { FileJournal, requestRefunds } from 'partner-sdk/bulk';
import { enqueueRefunds, refundProcessor } from 'partner-sdk/bullmq';
import { RedisJournalStore } from 'partner-sdk/redis';
import { createMockPartnerApi, type MockPartnerApi, type MockServer } from 'partner-sdk/testing';
import { createWebhookHandler, parseWebhookEvent } from 'partner-sdk/webhooks';
import { createClient } from 'redis';
import { expect } from 'vitest';
import { paulistaAddress as ADDRESS } from '../helpers/addresses';
import { type ForwardProxy, startForwardProxy } from '../helpers/forward-proxy';
import { listen } from '../helpers/http-servers';

/** One snippet's run: its kit, its directory, and what is to be closed after it. */
export class SnippetRun {
  readonly mock: MockPartnerApi;
  readonly server: MockServer;
  readonly redisUrl: string;
  readonly dir = mkdtempSync(join(tmpdir(), 'doc-snippet-'));
  /** `it(…)` bodies a snippet declared: run at once, awaited after the snippet. */
  readonly pending: Promise<unknown>[] = [];
  /** Run after the snippet, last added first (`afterAll` callbacks, what the scope opened). */
  readonly cleanups: (() => unknown)[] = [];
  readonly #values = new Map<string, Promise<unknown>>();

  private constructor(mock: MockPartnerApi, server: MockServer, redisUrl: string) {
    this.mock = mock;
    this.server = server;
    this.redisUrl = redisUrl;
  }

  static async start(redisUrl: string): Promise<SnippetRun> {
    // A refund or export finishes at its first poll, so snippets that wait are quick.
    const mock = createMockPartnerApi({ refundPolls: 0, exportPolls: 0 });
    const run = new SnippetRun(mock, await mock.listen(), redisUrl);
    run.cleanups.push(() => run.server.close());
    run.cleanups.push(() => rmSync(run.dir, { recursive: true, force: true }));
    return run;
  }

  /** The environment a partner's process would have: PARTNER_API_* at the kit, Redis, a token. */
  env(): Record<string, string> {
    return {
      PARTNER_API_BASE_URL: this.server.url,
      PARTNER_API_CLIENT_ID: this.mock.credentials.clientId,
      PARTNER_API_CLIENT_SECRET: this.mock.credentials.clientSecret,
      PARTNER_API_SELLER_TOKEN: this.mock.sellers.person.publicToken,
      REDIS_URL: this.redisUrl,
      WEBHOOK_TOKEN: 'doc-snippet-webhook-token',
      WEBHOOK_SECRET: 'doc-snippet-webhook-secret',
    };
  }

  /** The value of a scope name, made once per run. */
  get(name: string): Promise<unknown> {
    const make = SCOPE[name];
    if (!make) throw new Error(`no value for "${name}": add it to SCOPE in snippet-scope.ts`);
    if (!this.#values.has(name)) this.#values.set(name, Promise.resolve(make(this)));
    return this.#values.get(name)!;
  }

  /** Every name `names` lists, bound. */
  async scope(names: readonly string[]): Promise<Record<string, unknown>> {
    const scope: Record<string, unknown> = {};
    for (const name of names) scope[name] = await this.get(name);
    return scope;
  }

  /** Closes what the snippet declared and what the scope opened, each within a bound. */
  async close(declared: Record<string, unknown>): Promise<void> {
    await Promise.all(this.pending);
    for (const value of Object.values(declared).reverse()) this.cleanups.push(closerOf(value));
    for (const cleanup of this.cleanups.reverse()) await bounded(cleanup);
  }
}

/** How to close something a snippet opened: a server, a queue, a worker, a Redis client, a store. */
function closerOf(value: unknown): () => unknown {
  const it = value as {
    close?: (done?: () => void) => unknown;
    closeAllConnections?: () => void;
    disconnect?: () => void;
  } | null;
  // An ioredis client has no close: it disconnects.
  if (typeof it?.close !== 'function' && typeof it?.disconnect === 'function') {
    return () => it.disconnect!();
  }
  if (typeof it?.close !== 'function') return () => {};
  return () => {
    it.closeAllConnections?.();
    return new Promise<void>((resolve) => {
      const result = it.close!.call(it, () => resolve());
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        (result as Promise<unknown>).then(
          () => resolve(),
          () => resolve(),
        );
      } else if (it.closeAllConnections === undefined) resolve();
    });
  };
}

async function bounded(cleanup: () => unknown): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.resolve()
      .then(cleanup)
      .catch(() => {}),
    new Promise((resolve) => {
      timer = setTimeout(resolve, 5_000);
    }),
  ]);
  clearTimeout(timer);
}

/** The partner's own function or object: accepts any call, any property, and resolves. */
function partnersOwn(): unknown {
  const target = () => {};
  return new Proxy(target, {
    get: (_, key) => (key === 'then' ? undefined : partnersOwn()),
    apply: () => Promise.resolve(undefined),
  });
}

const person = (run: SnippetRun) => run.mock.sellers.person;

/** The seeded product the person seller owns (its offers are the seller's to update). */
function ownProduct(run: SnippetRun) {
  const { course, ebook, physical, recurring } = run.mock.products;
  const mine = [course, ebook, physical, recurring].find(
    (p) => p.producerCode === person(run).code,
  );
  return mine ?? course;
}

type Factory = (run: SnippetRun) => unknown;

/** The forward proxies snippets were given (`proxyUrl`), so a test can read what went through one. */
export const proxiesGiven: ForwardProxy[] = [];

/** Every name a snippet may assume or a `run with` replacement may use, and its value. */
export const SCOPE: Record<string, Factory> = {
  // The SDK's own, as a partner imports them.
  PartnerClient: () => PartnerClient,
  createMockPartnerApi: () => createMockPartnerApi,
  createWebhookHandler: () => createWebhookHandler,
  requestRefunds: () => requestRefunds,
  RedisJournalStore: () => RedisJournalStore,
  // A test file's globals: an `it` runs at once; an `afterAll` after the snippet.
  it: (run) => (_name: string, body: () => unknown) =>
    run.pending.push(Promise.resolve().then(body)),
  afterAll: (run) => (body: () => unknown) => run.cleanups.push(body),
  beforeAll: (run) => (body: () => unknown) => run.pending.push(Promise.resolve().then(body)),
  expect: () => expect,
  // The kit, a client pointed at it over loopback HTTP, and the seller it seeded.
  mock: (run) => run.mock,
  baseUrl: (run) => run.server.url,
  clientId: (run) => run.mock.credentials.clientId,
  clientSecret: (run) => run.mock.credentials.clientSecret,
  clientToken: (run) => run.mock.credentials.clientToken,
  client: (run) => new PartnerClient({ baseUrl: run.server.url, ...run.mock.credentials }),
  publicToken: (run) => person(run).publicToken,
  sellerToken: (run) => person(run).publicToken,
  user: (run) => ({ code: person(run).code, public_token: person(run).publicToken }),
  seller: async (run) =>
    ((await run.get('client')) as PartnerClient).forUser(person(run).publicToken),
  // Ids the guides write literally, replaced by the kit's (`run with` markers).
  refundableTransaction: (run) => run.mock.transactions.refundable[0],
  trx: (run) => run.mock.transactions.refundable[1],
  refundedTransaction: (run) => run.mock.transactions.withActiveRefund,
  productHash: (run) => ownProduct(run).hash,
  offerCode: (run) => ownProduct(run).offerCode,
  hash: (run) => run.mock.anticipations.confirmable[0],
  accountHash: (run) => run.mock.bankAccounts.pix,
  productHashes: (run) => [...run.mock.products.hashes],
  hashes: (run) => [1, 2, 3, 4].map(() => run.mock.addTransaction()),
  readHashes: async (run) => {
    const hashes = (await run.get('hashes')) as string[];
    return () => hashes;
  },
  result: async (run) => {
    const seller = (await run.get('seller')) as SellerOf;
    return seller.refunds.request(run.mock.addTransaction());
  },
  exportHash: async (run) => ((await exported(run)) as { hash: string }).hash,
  exported: (run) => exported(run),
  finished: async (run) => {
    const seller = (await run.get('seller')) as SellerOf;
    return seller.statements.waitForExport(
      (await exported(run)) as Parameters<SellerOf['statements']['waitForExport']>[0],
    );
  },
  // Profiles for `users.update`: valid ones, so the snippet's happy path runs.
  address: () => ADDRESS,
  // An avatar's bytes: the start of a PNG file.
  avatarBytes: () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  profile: () => ({
    name: 'Ana Souza',
    cpf: '123.456.789-09',
    birth: '1990-04-01',
    address: ADDRESS,
  }),
  // A webhook delivery's body, and a receiver for the testing guide's `deliver`.
  body: () =>
    JSON.stringify({
      event: 'subscription_ended',
      payload: { subscription_code: 'sub_1', end_reason: 'delinquency' },
    }),
  handler: () => createWebhookHandler({ on: { subscription_ended: () => {} }, dedupe: true }),
  on: () => ({ subscription_ended: () => {} }),
  event: async (run) => parseWebhookEvent(await run.get('body')),
  // A delivery's dedupe key, and the claim's owner.
  key: () => 'subscription_ended:req_1:3b9a0c',
  owner: () => randomUUID(),
  // A delivery cut short: not JSON.
  rawBody: () => '{"event": "subscription_ended", "payl',
  // A receiver listening on loopback, for `deliver` to post to.
  receiverUrl: async (run) => {
    const handler = (await run.get('handler')) as ReturnType<typeof createWebhookHandler>;
    const server = await listen(http.createServer(handler.node));
    run.cleanups.push(() => server.close());
    return `${server.url}/webhooks`;
  },
  // Servers and frameworks a guide mounts the receiver on.
  app: () => express(),
  Bun: () => ({ serve: () => ({ stop() {} }) }),
  Deno: () => ({ serve: () => ({ shutdown: async () => {} }) }),
  opened: (run) => (server: unknown) => {
    run.cleanups.push(closerOf(server));
    return server;
  },
  tempPath: (run) => (name: string) => join(run.dir, name),
  // A partner's HTTP proxy: a forward proxy on loopback, relaying to the kit.
  proxyUrl: async (run) => {
    const proxy = await startForwardProxy();
    run.cleanups.push(() => proxy.close());
    proxiesGiven.push(proxy);
    return proxy.url;
  },
  // Redis and BullMQ on the test's redis-server.
  redisPort: (run) => Number(new URL(run.redisUrl).port),
  redis: async (run) => {
    const redis = await createClient({ url: run.redisUrl }).connect();
    run.cleanups.push(() => redis.close());
    return redis;
  },
  connection: (run) => ({
    host: '127.0.0.1',
    port: Number(new URL(run.redisUrl).port),
    maxRetriesPerRequest: null,
  }),
  queue: (run) => queueWithWorker(run),
  // Jobs to enqueue: refunds of fresh transactions.
  items: (run) => [1, 2].map(() => ({ transactionHash: run.mock.addTransaction() })),
  // A bulk job's journal, and the records of the one an example keeps in memory.
  records: () => new Map(),
  store: async (run) => {
    const store = await FileJournal.open(join(run.dir, 'refunds.journal.jsonl'));
    run.cleanups.push(() => store.close());
    return store;
  },
  // OpenTelemetry providers recording in memory.
  tracerProvider: () =>
    new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())],
    }),
  meterProvider: () => new MeterProvider(),
  // The partner's own code and stores.
  markEnded: () => partnersOwn(),
  syncBankAccount: () => partnersOwn(),
  endSubscription: () => partnersOwn(),
  removeAccount: () => partnersOwn(),
  syncAccount: () => partnersOwn(),
  handle: () => partnersOwn(),
  login: (run) => async () => run.mock.credentials.clientToken,
  warn: () => partnersOwn(),
  saveBatch: () => partnersOwn(),
  secrets: (run) => ({ get: async () => run.mock.credentials.clientToken }),
  sellerTokens: (run) => ({ get: async () => run.mock.sellers.person.publicToken }),
  db: () => partnersOwn(),
  log: () => partnersOwn(),
  verify: () => () => true,
};

type SellerOf = ReturnType<PartnerClient['forUser']>;

/** A statement export the seller asked for (once per run). */
function exported(run: SnippetRun): Promise<unknown> {
  return run.get('__export');
}
SCOPE.__export = async (run) =>
  ((await run.get('seller')) as SellerOf).statements.export({ format: 'csv' });

/** A BullMQ queue of refunds of `hashes`, with a worker refunding them through the kit. */
async function queueWithWorker(run: SnippetRun): Promise<Queue> {
  const connection = (await run.get('connection')) as { host: string; port: number };
  const name = `doc-refunds-${Date.now()}`;
  const queue = new Queue(name, { connection });
  const seller = (await run.get('seller')) as SellerOf;
  const worker = new Worker(name, refundProcessor(seller, { queue }), { connection });
  run.cleanups.push(() => queue.close());
  run.cleanups.push(() => worker.close());
  const hashes = (await run.get('hashes')) as string[];
  await enqueueRefunds(
    queue,
    hashes.map((transactionHash) => ({ transactionHash })),
  );
  return queue;
}
