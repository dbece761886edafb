// A CommonJS partner's Jest suite (Jest's default runtime: its own `require`, a module registry per
// file, no ESM), run by `npm run test:runtimes` in the fresh project that installed the tarball:
// the testing kit's two faces, a client call, a webhook handler, and the client's waits (a retry's
// Retry-After, a refund's polls, a time-out) moved by Jest's fake timers, as the getting-started
// guide's "CommonJS, Jest and bundlers" section says to.
const {
  APIConnectionTimeoutError,
  NotFoundError,
  PartnerClient,
  PartnerError,
} = require('partner-sdk');
const { createMockPartnerApi, subscriptionEndedEvent } = require('partner-sdk/testing');
const { createWebhookHandler } = require('partner-sdk/webhooks');

/** A client on the kit's in-process face (no socket). */
function kitClient(mock, options = {}) {
  return new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
    logLevel: 'off',
    ...options,
  });
}

/** Whether `promise` has settled, read after timers are moved. */
function settled(promise) {
  const state = { done: false };
  promise.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  return state;
}

afterEach(() => jest.useRealTimers());

test('the kit through mock.fetch: a page, and a typed error', async () => {
  const client = kitClient(createMockPartnerApi());
  const page = await client.products.list({ per_page: 2 });
  expect(page.data).toHaveLength(2);
  await expect(client.products.retrieve('prd_missing')).rejects.toBeInstanceOf(NotFoundError);
});

test('the kit on loopback: a seller refunds and waits for it', async () => {
  const mock = createMockPartnerApi();
  const server = await mock.listen();
  try {
    const client = new PartnerClient({ baseUrl: server.url, ...mock.credentials, logLevel: 'off' });
    const seller = client.forUser(mock.sellers.person.publicToken);
    const result = await seller.refunds.request(mock.transactions.refundable[0], {
      reason: 'jest',
    });
    expect(result.kind).toBe('accepted');
    const final = await seller.refunds.waitForCompletion(result, { interval: 10 });
    expect(final.status).toBe('completed');
    expect(mock.stats.logins).toBe(1);
  } finally {
    await server.close();
  }
});

test('a webhook handler receives a delivery', async () => {
  const received = [];
  const handler = createWebhookHandler({
    logLevel: 'off',
    on: { subscription_ended: (event) => received.push(event) },
  });
  const response = await handler.fetch(
    new Request('http://127.0.0.1/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(subscriptionEndedEvent()),
    }),
  );
  expect(response.status).toBe(200);
  expect(received.map((event) => event.event)).toEqual(['subscription_ended']);
});

test("fake timers: a retry waits the 503's Retry-After in fake time", async () => {
  jest.useFakeTimers();
  const mock = createMockPartnerApi();
  const client = kitClient(mock);
  mock.failNext({ status: 503, retryAfter: 30 });
  const call = client.products.list({ per_page: 1 });
  const state = settled(call);
  await jest.advanceTimersByTimeAsync(29_000);
  expect(state.done).toBe(false);
  await jest.advanceTimersByTimeAsync(2_000);
  await expect(call).resolves.toMatchObject({ data: [expect.anything()] });
});

test("fake timers: a refund's polls and a call's time-out", async () => {
  jest.useFakeTimers();
  const mock = createMockPartnerApi();
  const client = kitClient(mock, { maxRetries: 0 });
  const seller = client.forUser(mock.sellers.person.publicToken);
  const result = await seller.refunds.request(mock.transactions.refundable[0], { reason: 'jest' });
  const wait = seller.refunds.waitForCompletion(result);
  await jest.advanceTimersByTimeAsync(10 * 60_000);
  await expect(wait).resolves.toMatchObject({ status: 'completed' });

  mock.failNext({ delayMs: 60_000 });
  const slow = client.products.list({ per_page: 1 }, { timeout: 1_000 });
  const state = settled(slow);
  await jest.advanceTimersByTimeAsync(1_500);
  expect(state.done).toBe(true);
  await expect(slow).rejects.toBeInstanceOf(APIConnectionTimeoutError);
});

test('instanceof holds across a copy of the package Jest loads apart', async () => {
  let copy;
  jest.isolateModules(() => {
    copy = require('partner-sdk');
  });
  expect(copy.NotFoundError).not.toBe(NotFoundError);
  const mock = createMockPartnerApi();
  const client = new copy.PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
    logLevel: 'off',
  });
  const err = await client.products.retrieve('prd_missing').catch((error) => error);
  expect(err).toBeInstanceOf(NotFoundError);
  expect(err).toBeInstanceOf(PartnerError);
  expect(err).toBeInstanceOf(copy.NotFoundError);
});
