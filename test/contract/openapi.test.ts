import { describe, expect, it } from 'vitest';
import document from '../../docs/openapi.json' with { type: 'json' };
import { createMockPartnerApi } from '../../src/testing';
import { toForm } from './form';
import { contractProblems } from './openapi-validator';

/**
 * Every endpoint of the testing kit and each of its error paths, called over its Fetch-standard
 * function, and every answer checked against docs/openapi.json (see openapi-validator.ts). The kit
 * is written from the spec, the document from the SDK's schemas: this is where the two must agree.
 */
function kit() {
  const mock = createMockPartnerApi();
  const client = { 'X-Api-Client-Token': mock.credentials.clientToken };
  const asSeller = (who: 'person' | 'company' = 'person') => ({
    ...client,
    Authorization: `Bearer ${mock.sellers[who].publicToken}`,
  });
  const answers: { call: string; expected: number; status: number; problems: string[] }[] = [];
  /**
   * Calls `method path` (matching `template`), expecting `expected`; checks the answer against the
   * document and returns its body.
   */
  async function call(
    method: string,
    template: string,
    path: string,
    expected: number,
    init: { headers?: Record<string, string>; json?: unknown; form?: FormData } = {},
  ) {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const body = init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json));
    const response = await mock.fetch(`${mock.baseUrl}${path}`, { method, headers, body });
    const parsed = await response.json();
    const problems = contractProblems(method, template, response, parsed);
    answers.push({ call: `${method} ${template}`, expected, status: response.status, problems });
    return { status: response.status, body: parsed as Record<string, unknown> };
  }
  return { mock, client, asSeller, call, answers };
}

const ADDRESS = {
  zip_code: '01310-100',
  street: 'Av. Paulista',
  street_number: '1000',
  neighborhood: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP',
  country: 'Brasil',
};

describe('the testing kit answers as docs/openapi.json says', () => {
  it('on every endpoint of spec §4.1–4.11, the login and the assumed status lookups, and serves this document', async () => {
    const { mock, client, asSeller, call, answers } = kit();
    const seller = asSeller();
    const { course } = mock.products;

    await call('POST', '/auth', '/auth', 200, {
      json: { client_id: mock.credentials.clientId, client_secret: mock.credentials.clientSecret },
    });
    await call('GET', '/products', '/products?per_page=2', 200, { headers: client });
    await call('GET', '/products/{product_hash}', `/products/${course.hash}`, 200, {
      headers: client,
    });
    await call(
      'PUT',
      '/products/{product_hash}/offers/{offer_code}',
      `/products/${course.hash}/offers/${course.offerCode}`,
      200,
      {
        headers: seller,
        json: { name: 'Contract offer', price: 4990 },
      },
    );
    await call('POST', '/users/update', '/users/update', 200, {
      headers: seller,
      form: toForm({
        name: 'Ana Souza',
        cpf: '529.982.247-25',
        birth: '1990-04-01',
        address: ADDRESS,
      }),
    });
    await call(
      'POST',
      '/users/bank-accounts/{account_hash}',
      `/users/bank-accounts/${mock.bankAccounts.pix}`,
      200,
      {
        headers: seller,
        json: { holder_name: 'Ana Souza', receiver_type: 'pix', pix_key: 'ana@example.com' },
      },
    );
    const [refundable] = mock.transactions.refundable;
    await call(
      'POST',
      '/financial/refund/{transaction_hash}',
      `/financial/refund/${refundable}`,
      202,
      {
        headers: seller,
        json: { reason: 'contract' },
      },
    );
    await call(
      'POST',
      '/financial/refund/{transaction_hash}',
      `/financial/refund/${mock.transactions.withActiveRefund}`,
      200,
      {
        headers: seller,
        json: {},
      },
    );
    await call(
      'GET',
      '/financial/refund/{transaction_hash}',
      `/financial/refund/${refundable}`,
      200,
      { headers: seller },
    );
    await call(
      'GET',
      '/financial/refund/{transaction_hash}/status',
      `/financial/refund/${refundable}/status`,
      200,
      { headers: seller },
    );
    const exportBody = { format: 'csv', filter: { betweenDates: '01/10/2026,31/10/2026' } };
    const exported = await call(
      'POST',
      '/financial/account-statement/export-report',
      '/financial/account-statement/export-report',
      200,
      {
        headers: seller,
        json: exportBody,
      },
    );
    await call(
      'POST',
      '/financial/account-statement/export-report',
      '/financial/account-statement/export-report',
      409,
      {
        headers: seller,
        json: exportBody,
      },
    );
    const exportData = (exported.body.data ?? exported.body) as { hash: string };
    await call(
      'GET',
      '/financial/account-statement/export-report/{export_hash}',
      `/financial/account-statement/export-report/${exportData.hash}`,
      200,
      { headers: seller },
    );
    await call(
      'POST',
      '/financial/anticipation/confirm/{anticipation_hash}',
      `/financial/anticipation/confirm/${mock.anticipations.confirmable[0]}`,
      200,
      {
        headers: seller,
        json: { scenario: 'above' },
      },
    );
    await call('GET', '/financial/anticipation', '/financial/anticipation?per_page=5', 200, {
      headers: seller,
    });
    await call('GET', '/users/fee-tiers/history', '/users/fee-tiers/history', 200, {
      headers: seller,
    });
    // The kit serves the document itself, which lists only the service's operations.
    const served = await mock.fetch(`${mock.baseUrl}/openapi.json`);
    expect(await served.json()).toEqual(document);

    expect(answers.filter((a) => a.status !== a.expected || a.problems.length > 0)).toEqual([]);
  });

  it('on the error paths: missing credentials, refused input, unknown hashes, conflicts and faults', async () => {
    const { mock, client, asSeller, call, answers } = kit();
    const seller = asSeller();
    const { course } = mock.products;

    await call('POST', '/auth', '/auth', 422, { json: {} });
    await call('POST', '/auth', '/auth', 401, {
      json: { client_id: 'nobody', client_secret: 'wrong' },
    });
    await call('GET', '/products', '/products', 401);
    await call('GET', '/products', '/products?per_page=500', 422, { headers: client });
    await call('GET', '/products/{product_hash}', '/products/prd_missing', 404, {
      headers: client,
    });
    await call(
      'PUT',
      '/products/{product_hash}/offers/{offer_code}',
      `/products/${course.hash}/offers/${course.offerCode}`,
      422,
      {
        headers: seller,
        json: { price: -1 },
      },
    );
    await call(
      'PUT',
      '/products/{product_hash}/offers/{offer_code}',
      `/products/${course.hash}/offers/missing`,
      404,
      {
        headers: seller,
        json: { name: 'x' },
      },
    );
    await call('POST', '/users/update', '/users/update', 401, {
      headers: client,
      form: toForm({ name: 'Ana Souza' }),
    });
    await call('POST', '/users/update', '/users/update', 422, {
      headers: seller,
      form: toForm({ name: 'A' }),
    });
    await call(
      'POST',
      '/users/bank-accounts/{account_hash}',
      '/users/bank-accounts/bnk_missing',
      404,
      {
        headers: seller,
        json: { holder_name: 'Ana Souza' },
      },
    );
    await call(
      'POST',
      '/financial/refund/{transaction_hash}',
      `/financial/refund/${mock.transactions.refundable[0]}`,
      422,
      {
        headers: seller,
        json: { reason: 'x'.repeat(1001) },
      },
    );
    await call(
      'POST',
      '/financial/account-statement/export-report',
      '/financial/account-statement/export-report',
      422,
      {
        headers: seller,
        json: { format: 'csv', filter: { betweenDates: 'yesterday' } },
      },
    );
    await call(
      'GET',
      '/financial/account-statement/export-report/{export_hash}',
      '/financial/account-statement/export-report/exp_missing',
      404,
      { headers: seller },
    );
    await call(
      'POST',
      '/financial/anticipation/confirm/{anticipation_hash}',
      `/financial/anticipation/confirm/${mock.anticipations.confirmable[0]}`,
      422,
      {
        headers: seller,
        json: { scenario: 'sideways' },
      },
    );
    await call(
      'POST',
      '/financial/anticipation/confirm/{anticipation_hash}',
      '/financial/anticipation/confirm/ant_missing',
      404,
      {
        headers: seller,
        json: { scenario: 'above' },
      },
    );
    await call('GET', '/financial/anticipation', '/financial/anticipation?per_page=101', 422, {
      headers: seller,
    });
    mock.failNext({ status: 503, retryAfter: 1 });
    await call('GET', '/users/fee-tiers/history', '/users/fee-tiers/history', 503, {
      headers: seller,
    });
    mock.setOriginAllowed(false);
    await call('GET', '/products', '/products', 403, { headers: client });

    expect(answers.filter((a) => a.status !== a.expected || a.problems.length > 0)).toEqual([]);
  });
});
