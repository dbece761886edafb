import { describe, expect, it } from 'vitest';
import { AuthenticationError, PartnerClient } from '../../src';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing';
import { call } from './helpers';

type Client = PartnerClient | ReturnType<PartnerClient['forUser']>;

/** Every seller-scoped SDK method, each a call the kit would serve for the person seller. */
function sellerCalls(mock: MockPartnerApi): Record<string, (c: Client) => Promise<unknown>> {
  const trx = mock.transactions.withActiveRefund;
  const { hash, offerCode } = mock.products.course;
  return {
    'POST /users/bank-accounts/{hash}': (c) =>
      c.bankAccounts.update(mock.bankAccounts.pix, { holder_name: 'Maria Aparecida Souza' }),
    'PUT /products/{hash}/offers/{code}': (c) => c.offers.update(hash, offerCode, { price: 9900 }),
    'POST /financial/refund/{hash}': (c) => c.refunds.request(trx),
    'GET /financial/refund/{hash}': (c) => c.refunds.list(trx),
    'GET /financial/refund/{hash}/status': (c) => c.refunds.retrieveStatus(trx),
    'POST /financial/account-statement/export-report': (c) =>
      c.statements.export({ format: 'csv', filter: { betweenDates: '01/02/2025,28/02/2025' } }),
    'POST /financial/anticipation/confirm/{hash}': (c) =>
      c.anticipations.confirm(mock.anticipations.confirmable[0]!, { scenario: 'above' }),
    'GET /financial/anticipation': (c) => c.anticipations.list(),
    'GET /users/fee-tiers/history': (c) => c.feeTiers.history(),
  };
}

function clients(mock: MockPartnerApi) {
  const root = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    clientToken: mock.credentials.clientToken,
    maxRetries: 0,
    logLevel: 'off',
  });
  return { root, seller: root.forUser(mock.sellers.person.publicToken) };
}

describe("the kit requires the seller's bearer as the service does", () => {
  const names = Object.keys(sellerCalls(createMockPartnerApi()));

  it.each(names)('%s refuses the root client with 401 and serves forUser', async (name) => {
    const mock = createMockPartnerApi();
    const { root, seller } = clients(mock);
    const run = sellerCalls(mock)[name]!;

    const refused = await run(root).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect(refused).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
    await expect(run(seller)).resolves.toBeDefined();
  });

  it('refuses the profile update without a bearer (raw), and serves it with one', async () => {
    const mock = createMockPartnerApi();
    const form = new FormData();
    form.set('name', 'Maria Aparecida Souza');
    const raw = await mock.fetch(`${mock.baseUrl}/users/update`, {
      method: 'POST',
      headers: { 'X-Api-Client-Token': mock.credentials.clientToken },
      body: form,
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('serves the login and the product catalogue without a bearer', async () => {
    const mock = createMockPartnerApi();
    const { root } = clients(mock);
    await expect(root.products.list()).resolves.toBeDefined();
    await expect(root.products.retrieve(mock.products.physical.hash)).resolves.toMatchObject({
      type: 'physical',
    });
    const { clientId, clientSecret } = mock.credentials;
    const login = await call(
      mock,
      'POST',
      '/auth',
      { client_id: clientId, client_secret: clientSecret },
      { Authorization: '' },
    );
    expect(login.status).toBe(200);
  });

  it('refuses an unknown bearer with the same 401, even on the catalogue', async () => {
    const mock = createMockPartnerApi();
    for (const path of ['/products', '/financial/anticipation']) {
      const res = await call(mock, 'GET', path, undefined, {
        Authorization: 'Bearer not-a-seller',
      });
      expect(res).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
    }
  });

  it('opens a route declared in publicRoutes, acting for the person seller', async () => {
    const mock = createMockPartnerApi({
      publicRoutes: ['GET /users/fee-tiers/history', 'POST /financial/refund/{transaction_hash}'],
    });
    const { root } = clients(mock);
    await expect(root.feeTiers.history()).resolves.not.toHaveLength(0);
    await expect(root.refunds.request(mock.transactions.refundable[0]!)).resolves.toMatchObject({
      kind: 'accepted',
    });
    // Routes not declared stay closed.
    await expect(root.anticipations.list()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(root.refunds.list(mock.transactions.refundable[0]!)).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });

  it('names a route in publicRoutes however the spec writes its parameters, and refuses a typo', () => {
    expect(() =>
      createMockPartnerApi({ publicRoutes: ['put /products/:hash/offers/:code/'] }),
    ).not.toThrow();
    expect(() => createMockPartnerApi({ publicRoutes: ['GET /fee-tiers/history'] })).toThrow(
      /no route GET \/fee-tiers\/history/,
    );
    expect(() => createMockPartnerApi({ publicRoutes: ['/products'] })).toThrow(TypeError);
  });
});
