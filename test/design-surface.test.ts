/**
 * DESIGN.md read as an outside tester reads it: each test calls the public surface with the
 * literal names and call shapes DESIGN shows (options, methods, error properties, kit knobs, the
 * three faces, the webhook receiver), through the package's own entry points and nothing else.
 * A name DESIGN promises that the package spells differently, types too narrowly or refuses at
 * run time fails here. Everything runs on the kit's fetch face, or its loopback server.
 */

import { setupServer } from 'msw/node';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PartnerClient,
  PartnerError,
  PermissionDeniedError,
  PollTimeoutError,
  RateLimitError,
  type RequestOptions,
  RequestValidationError,
  ResponseValidationError,
  toFile,
  UnprocessableEntityError,
} from 'partner-sdk';
import { createMockPartnerApi, subscriptionEndedEvent } from 'partner-sdk/testing';
import { mswHandlers } from 'partner-sdk/testing/msw';
import { createWebhookHandler, parseWebhookEvent } from 'partner-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { paulistaAddress as address } from './helpers/addresses';

const quiet = { error() {}, warn() {}, info() {}, debug() {} };
const fast = { interval: 5, maxInterval: 10, timeout: 5_000 };

/** A mock, a client on its fetch face (DESIGN §8) and the person seller's client. */
function setUp(options: { maxRetries?: number } = {}) {
  const mock = createMockPartnerApi();
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
    logger: quiet,
    ...options,
  });
  return { mock, client, seller: client.forUser(mock.sellers.person.publicToken) };
}

describe('DESIGN §2: the client', () => {
  it('takes every option DESIGN lists, a token function among them', async () => {
    const mock = createMockPartnerApi();
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      clientId: mock.credentials.clientId,
      clientSecret: mock.credentials.clientSecret,
      clientToken: async () => mock.credentials.clientToken,
      timeout: 30_000,
      totalTimeout: 120_000,
      maxRetries: 2,
      fetch: mock.fetch,
      logger: quiet,
      logLevel: 'off',
      validateResponses: 'strict',
    });
    expect((await client.products.list()).data.length).toBeGreaterThan(0);
    expect(mock.stats.logins).toBe(0);
  });

  it('names a missing baseUrl at construction', () => {
    expect(() => new PartnerClient({ baseUrl: '', clientToken: 't' })).toThrow(PartnerError);
  });

  it('gives the seller client every namespace, and the root client all but users', () => {
    const { client, seller } = setUp();
    const shared = ['bankAccounts', 'products', 'offers', 'refunds', 'statements', 'anticipations'];
    for (const name of [...shared, 'feeTiers']) {
      expect(client).toHaveProperty(name);
      expect(seller).toHaveProperty(name);
    }
    expect(seller).toHaveProperty('users');
    expect(client).not.toHaveProperty('users');
  });

  it('logs in once for 100 concurrent first calls, and withOptions shares that login', async () => {
    const { mock, client } = setUp();
    const hash = mock.products.course.hash;
    await Promise.all(Array.from({ length: 100 }, () => client.products.retrieve(hash)));
    const fastClient = client.withOptions({ timeout: 5_000, maxRetries: 0 });
    await fastClient.products.retrieve(hash);
    expect(mock.stats.logins).toBe(1);
  });

  it('sends RequestOptions headers, and .withResponse() gives { data, response }', async () => {
    const { mock, client } = setUp();
    const options: RequestOptions = {
      signal: AbortSignal.timeout(5_000),
      timeout: 2_000,
      totalTimeout: 4_000,
      maxRetries: 0,
      headers: { 'X-Trace': 'design' },
    };
    const { data, response } = await client.products
      .retrieve(mock.products.course.hash, options)
      .withResponse();
    expect(data.hash).toBe(mock.products.course.hash);
    expect(response.status).toBe(200);
    expect(mock.requests.at(-1)?.headers['x-trace']).toBe('design');
  });

  it('calls a §4.12 operation through client.request with a schema', async () => {
    const { seller } = setUp();
    const schema = z.looseObject({ data: z.array(z.unknown()) });
    const history = await seller.request({
      method: 'GET',
      path: '/users/fee-tiers/history',
      schema,
    });
    expect(Array.isArray(history.data)).toBe(true);
  });

  it('refuses an unknown key naming the closest documented one, and bad path parameters, sending nothing', async () => {
    const { mock, client } = setUp();
    // @ts-expect-error DESIGN: an unknown key is a compile error
    const typo = client.products.list({ perPage: 5 });
    await expect(typo).rejects.toThrow(/perPage.*per_page/);
    for (const bad of ['', '.', '..']) {
      await expect(client.products.retrieve(bad)).rejects.toBeInstanceOf(RequestValidationError);
    }
    expect(mock.requests).toHaveLength(0);
  });

  it('retries 408, 429 and 5xx, and fails at once with RateLimitError past a 60 s Retry-After', async () => {
    const { mock, client } = setUp();
    for (const status of [408, 429, 500, 503]) {
      mock.failNext({ status, times: 2, retryAfter: 0 });
      await expect(client.products.list()).resolves.toBeDefined();
    }
    mock.failNext({ status: 429, times: 1, retryAfter: 61 });
    await expect(client.products.list()).rejects.toMatchObject({
      constructor: RateLimitError,
      status: 429,
      retryAfterMs: 61_000,
    });
  });
});

describe('DESIGN §3: the methods', () => {
  it('updates the profile as multipart with a toFile avatar, and the bank account', async () => {
    const { mock, seller } = setUp();
    const avatar = await toFile(new Uint8Array([137, 80, 78, 71]), 'avatar.png', {
      type: 'image/png',
    });
    const user = await seller.users.update({
      name: 'Ana Souza',
      address,
      cpf: '123.456.789-09',
      birth: '1990-04-01',
      phones: [{ type: 'mobile', ddd: '11', number: '912345678' }],
      avatar,
    });
    expect(user.code).toBe(mock.sellers.person.code);
    expect(mock.requests.at(-1)?.body).toMatchObject({
      'address[zip_code]': '01310-100',
      'phones[0][number]': '912345678',
    });
    const account = await seller.bankAccounts.update(mock.bankAccounts.pix, { holder_name: 'Ana' });
    expect(account.code).toEqual(expect.any(String));
  });

  it('walks every product with for await, and pages with hasNextPage/getNextPage', async () => {
    const { client } = setUp();
    const first = await client.products.list({ page: 1, per_page: 50 });
    expect(Object.keys(first.pagination).sort()).toEqual([
      'current_page',
      'last_page',
      'per_page',
      'total',
    ]);
    expect(first.hasNextPage()).toBe(true);
    expect((await first.getNextPage()).pagination.current_page).toBe(2);
    let walked = 0;
    for await (const product of client.products.list({ per_page: 50 })) {
      expect(product.hash).toEqual(expect.any(String));
      walked += 1;
    }
    expect(walked).toBe(first.pagination.total);
  });

  it('requests a refund (accepted, then existing) and waits for completed', async () => {
    const { mock, seller } = setUp();
    const trx = mock.transactions.refundable[0]!;
    const accepted = await seller.refunds.request(trx, { reason: 'Customer asked' });
    const existing = await seller.refunds.request(trx);
    expect(accepted).toMatchObject({ kind: 'accepted', transactionHash: trx });
    expect(existing).toMatchObject({ kind: 'existing', refund: { transaction_hash: trx } });
    expect((await seller.refunds.retrieveStatus(trx)).status).toBe('requested');
    expect((await seller.refunds.waitForCompletion(accepted, fast)).status).toBe('completed');
    expect((await seller.refunds.list(trx)).map((refund) => refund.status)).toEqual(['completed']);
    const other = mock.transactions.refundable[1]!;
    expect((await seller.refunds.requestAndWait(other, undefined, fast)).status).toBe('completed');
  });

  it('times a wait out with PollTimeoutError carrying the last status', async () => {
    const { mock, seller } = setUp();
    const trx = mock.transactions.refundable[2]!;
    mock.refundOutcome(trx, 'completed', { polls: 1_000 });
    const accepted = await seller.refunds.request(trx);
    const wait = seller.refunds.waitForCompletion(accepted, { ...fast, timeout: 1_000 });
    await expect(wait).rejects.toBeInstanceOf(PollTimeoutError);
    await expect(wait).rejects.toMatchObject({ lastStatus: 'requested' });
  });

  it('exports a statement ({ start, end } dates), meets the running one, waits and downloads it', async () => {
    const { mock, seller } = setUp();
    const params = {
      format: 'csv',
      filter: { betweenDates: { start: '2026-03-01', end: '2026-03-31' } },
    };
    const exported = await seller.statements.export(params);
    expect(mock.requests.at(-1)?.body).toMatchObject({
      filter: { betweenDates: '01/03/2026,31/03/2026' },
    });
    const again = await seller.statements.export(params);
    expect(exported).toMatchObject({ status: 'processing', url: null, alreadyRunning: false });
    expect(again).toMatchObject({ hash: exported.hash, alreadyRunning: true });
    expect((await seller.statements.retrieve(exported.hash)).hash).toBe(exported.hash);
    const finished = await seller.statements.waitForExport(exported, fast);
    const file = await seller.statements.download(finished);
    expect(file.status).toBe(200);
    expect((await file.text()).length).toBeGreaterThan(0);
  });

  it('confirms an anticipation with { scenario }, lists anticipations and the fee-tier history', async () => {
    const { mock, seller } = setUp();
    const hash = mock.anticipations.confirmable[0]!;
    const confirmation = await seller.anticipations.confirm(hash, { scenario: 'above' });
    expect(confirmation.amount).toEqual(expect.any(Number));
    const page = await seller.anticipations.list({ page: 1, per_page: 10 });
    expect(page.pagination.last_page).toBeGreaterThanOrEqual(1);
    expect(Array.isArray(await seller.feeTiers.history())).toBe(true);
  });
});

describe('DESIGN §4: errors', () => {
  it('maps each status to its class, with status, body, headers, method and path', async () => {
    const { mock, client } = setUp({ maxRetries: 0 });
    const classes = [
      [400, BadRequestError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [409, ConflictError],
      [422, UnprocessableEntityError],
      [429, RateLimitError],
      [500, InternalServerError],
    ] as const;
    for (const [status, type] of classes) {
      mock.failNext({ status, path: '/products', body: { message: `failed ${status}` } });
      const error = await client.products.list().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(APIError);
      expect(error).toMatchObject({ status, method: 'GET', path: '/products' });
      expect((error as APIError).body).toEqual({ message: `failed ${status}` });
      expect((error as APIError).headers).toBeInstanceOf(Headers);
    }
    mock.failNext({ status: 401, times: 2, path: '/products' });
    await expect(client.products.list()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('reads a Laravel 422 into the message and fieldErrors, keys as they came', async () => {
    const { mock, seller } = setUp();
    const message = 'The reason may not be greater than 1000 characters.';
    const errors = { reason: [message], 'phones.0.number': ['The number is invalid.'] };
    mock.failNext({ status: 422, path: '/financial/refund/abc', body: { message, errors } });
    const error = await seller.refunds.request('abc').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as Error).message).toBe(
      `POST /financial/refund/abc → 422 Unprocessable Entity: ${message}`,
    );
    expect((error as UnprocessableEntityError).fieldErrors).toEqual(errors);
  });

  it('throws APIConnectionError and APIConnectionTimeoutError for a drop and a slow answer', async () => {
    const { mock, client } = setUp({ maxRetries: 0 });
    await client.products.list();
    mock.dropNext();
    await expect(client.products.list()).rejects.toBeInstanceOf(APIConnectionError);
    mock.failNext({ delayMs: 2_000 });
    const slow = client.products.list({}, { timeout: 50 });
    await expect(slow).rejects.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('keeps the raw body and the issues on ResponseValidationError', async () => {
    const body = { hash: 'prd_1', name: 5 };
    const client = new PartnerClient({
      baseUrl: 'https://partner.example.com/api/v1',
      clientToken: 'tok',
      fetch: async () => Response.json(body),
      logger: quiet,
    });
    const error = await client.products.retrieve('prd_1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ body, issues: [expect.objectContaining({ path: ['name'] })] });
  });
});

describe('DESIGN §7: webhooks', () => {
  const post = (body: string, method = 'POST') =>
    new Request('http://127.0.0.1/webhooks', {
      method,
      headers: { 'content-type': 'application/json' },
      body: method === 'POST' ? body : undefined,
    });

  it('parses a delivery into its event, any other name as a generic event', () => {
    const event = parseWebhookEvent(JSON.stringify(subscriptionEndedEvent()));
    expect(event.event).toBe('subscription_ended');
    const other = parseWebhookEvent({ ...subscriptionEndedEvent(), event: 'order_created' });
    expect(other).toMatchObject({ event: 'order_created' });
  });

  it('answers 200 after the handler, 400, 405, 413, and 500 when the handler throws', async () => {
    let fail = false;
    const handled: string[] = [];
    const handler = createWebhookHandler({
      on: {
        subscription_ended: async (e) => {
          if (fail) throw new Error('database down');
          handled.push(e.payload.subscription_code);
        },
      },
      onUnknown: async (e) => {
        handled.push(e.event);
      },
      dedupe: true,
      verify: async () => true,
      maxBodyBytes: 10_000,
      logger: quiet,
    });
    const delivery = JSON.stringify(subscriptionEndedEvent());
    expect((await handler.fetch(post(delivery))).status).toBe(200);
    expect((await handler.fetch(post('{"event":'))).status).toBe(400);
    expect((await handler.fetch(post('', 'GET'))).status).toBe(405);
    expect((await handler.fetch(post('x'.repeat(20_000)))).status).toBe(413);
    fail = true;
    const other = JSON.stringify({ ...subscriptionEndedEvent(), created_at: 'later' });
    expect((await handler.fetch(post(other))).status).toBe(500);
    expect(handled).toHaveLength(1);
  });
});

describe('DESIGN §8: the testing kit', () => {
  it('serves a client on its loopback server, url ending in /api/v1', async () => {
    const mock = createMockPartnerApi();
    const { url, close } = await mock.listen();
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      const client = new PartnerClient({ baseUrl: url, ...mock.credentials, logger: quiet });
      expect((await client.products.list()).data.length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  it('serves a client through mswHandlers(mock)', async () => {
    const mock = createMockPartnerApi();
    const server = setupServer(...mswHandlers(mock));
    server.listen({ onUnhandledFrame: 'error' });
    try {
      const client = new PartnerClient({ baseUrl: mock.baseUrl, ...mock.credentials });
      expect((await client.products.list()).data.length).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });

  it('answers a Request on its fetch face, with mock.credentials and each of mock.sellers', async () => {
    const mock = createMockPartnerApi();
    const { clientToken } = mock.credentials;
    for (const { code, type, publicToken } of mock.sellers) {
      expect([code, type]).toEqual([expect.any(String), expect.stringMatching(/person|company/)]);
      const request = new Request(`${mock.baseUrl}/users/fee-tiers/history`, {
        headers: { 'X-Api-Client-Token': clientToken, Authorization: `Bearer ${publicToken}` },
      });
      expect((await mock.fetch(request)).status).toBe(200);
    }
  });
});
