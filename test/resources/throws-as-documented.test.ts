/**
 * Each resource method's `@throws`, provoked through the published names against the testing kit:
 * the class its JSDoc names, the fields a partner reads off it (`status`, `method`, `path`,
 * `body`, `fieldErrors`) and the message's form (`METHOD path → status phrase: what was said`).
 */

import {
  type APIError,
  APIUserAbortError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  OutcomeUnknownError,
  RequestValidationError,
  UnprocessableEntityError,
} from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { paulistaAddress } from '../helpers/addresses';
import { kitClients } from '../helpers/kit-clients';
import { waitFor, withTimeout } from '../helpers/waits';

/** The kit's seeded data the calls below name (hand-written wire fixtures of the kit). */
const PHYSICAL_PRODUCT = 'prd_Phy5ic4l';
const PHYSICAL_OFFER = 'ofr_Ph1Kit01';

function setUp() {
  return kitClients(createMockPartnerApi());
}

/** What `call` rejects with, within a bound. */
async function rejectionOf(call: PromiseLike<unknown>): Promise<unknown> {
  try {
    await withTimeout(Promise.resolve(call), 5_000, 'the call');
  } catch (error) {
    return error;
  }
  throw new Error('the call resolved');
}

/** Checks an error status as a partner reads it, and returns it narrowed. */
function expectStatus<T extends APIError>(
  error: unknown,
  ErrorClass: abstract new (...args: never[]) => T,
  status: number,
  request: { method: string; path: string },
): T {
  expect(error).toBeInstanceOf(ErrorClass);
  const apiError = error as T;
  expect(apiError.status).toBe(status);
  expect(apiError.method).toBe(request.method);
  expect(apiError.path).toBe(request.path);
  const prefix = `${request.method} ${request.path} → ${status} `;
  expect(apiError.message.slice(0, prefix.length)).toBe(prefix);
  // The status's reason phrase follows, then what the service said.
  expect(apiError.message.slice(prefix.length)).toMatch(/^[A-Z][A-Za-z ]+(: .+)?$/);
  return apiError;
}

describe('@throws {NotFoundError}: a hash the service does not know', () => {
  const calls = [
    {
      method: 'products.retrieve',
      call: ({ client }: ReturnType<typeof setUp>) => client.products.retrieve('prd_none'),
      request: { method: 'GET', path: '/products/prd_none' },
    },
    {
      method: 'offers.update',
      call: ({ seller }: ReturnType<typeof setUp>) =>
        seller.offers.update(PHYSICAL_PRODUCT, 'ofr_none', { price: 100 }),
      request: { method: 'PUT', path: `/products/${PHYSICAL_PRODUCT}/offers/ofr_none` },
    },
    {
      method: 'bankAccounts.update',
      call: ({ seller }: ReturnType<typeof setUp>) =>
        seller.bankAccounts.update('bnk_none', { holder_name: 'Ana Souza' }),
      request: { method: 'POST', path: '/users/bank-accounts/bnk_none' },
    },
    {
      method: 'refunds.request',
      call: ({ seller }: ReturnType<typeof setUp>) => seller.refunds.request('trx_none'),
      request: { method: 'POST', path: '/financial/refund/trx_none' },
    },
    {
      method: 'refunds.requestAndWait',
      call: ({ seller }: ReturnType<typeof setUp>) => seller.refunds.requestAndWait('trx_none'),
      request: { method: 'POST', path: '/financial/refund/trx_none' },
    },
    {
      method: 'refunds.list',
      call: ({ seller }: ReturnType<typeof setUp>) => seller.refunds.list('trx_none'),
      request: { method: 'GET', path: '/financial/refund/trx_none' },
    },
    {
      method: 'refunds.findCreatedSince',
      call: ({ seller }: ReturnType<typeof setUp>) =>
        seller.refunds.findCreatedSince('trx_none', new Date()),
      request: { method: 'GET', path: '/financial/refund/trx_none' },
    },
    {
      method: 'refunds.retrieveStatus',
      call: ({ seller }: ReturnType<typeof setUp>) => seller.refunds.retrieveStatus('trx_none'),
      request: { method: 'GET', path: '/financial/refund/trx_none/status' },
    },
    {
      method: 'statements.retrieve',
      call: ({ seller }: ReturnType<typeof setUp>) => seller.statements.retrieve('exp_none'),
      request: { method: 'GET', path: '/financial/account-statement/export-report/exp_none' },
    },
    {
      method: 'refunds.waitForCompletion',
      call: ({ seller }: ReturnType<typeof setUp>) =>
        seller.refunds.waitForCompletion('trx_none', { timeout: 5_000 }),
      request: { method: 'GET', path: '/financial/refund/trx_none/status' },
    },
    {
      method: 'statements.waitForExport',
      call: ({ seller }: ReturnType<typeof setUp>) =>
        seller.statements.waitForExport('exp_none', { timeout: 5_000 }),
      request: { method: 'GET', path: '/financial/account-statement/export-report/exp_none' },
    },
    {
      method: 'anticipations.confirm',
      call: ({ seller }: ReturnType<typeof setUp>) =>
        seller.anticipations.confirm('ant_none', { scenario: 'above' }),
      request: { method: 'POST', path: '/financial/anticipation/confirm/ant_none' },
    },
  ];
  for (const { method, call, request } of calls) {
    it(`${method} rejects with NotFoundError carrying status 404, the method and the path`, async () => {
      const kit = setUp();
      const error = await rejectionOf(call(kit));
      const notFound = expectStatus(error, NotFoundError, 404, request);
      expect(notFound.body).toEqual({ message: expect.any(String) });
      expect(notFound.headers.get('content-type')).toMatch(/json/);
    });
  }
});

describe('@throws {UnprocessableEntityError}: a rule that depends on what the service holds', () => {
  it('offers.update of a physical product without quantity_items and freight: fieldErrors names both', async () => {
    const kit = setUp();
    const error = await rejectionOf(
      kit.seller.offers.update(PHYSICAL_PRODUCT, PHYSICAL_OFFER, { price: 100 }),
    );
    const refused = expectStatus(error, UnprocessableEntityError, 422, {
      method: 'PUT',
      path: `/products/${PHYSICAL_PRODUCT}/offers/${PHYSICAL_OFFER}`,
    });
    expect(Object.keys(refused.fieldErrors).sort()).toEqual(['freight', 'quantity_items']);
    expect(refused.message).toContain(refused.fieldErrors.quantity_items?.[0] ?? '(none)');
  });

  it("users.update of a person under 18 without emancipation: the clock is the service's to judge", async () => {
    const kit = setUp();
    const now = kit.mock.now();
    const birth = `${now.getUTCFullYear() - 10}-01-15`;
    const error = await rejectionOf(
      kit.seller.users.update({
        name: 'Ana Souza',
        cpf: '123.456.789-09',
        birth,
        address: paulistaAddress,
      }),
    );
    const refused = expectStatus(error, UnprocessableEntityError, 422, {
      method: 'POST',
      path: '/users/update',
    });
    expect(Object.keys(refused.fieldErrors).sort()).toEqual([
      'emancipated_document',
      'is_emancipated',
    ]);
  });

  it('users.update with company_partner once it is defined: refused, and sent once', async () => {
    const kit = setUp();
    const company = kit.client.forUser(kit.mock.sellers.company.publicToken);
    const profile = {
      name: 'Loja Exemplo Ltda',
      cnpj: '11.222.333/0001-81',
      company_type: 'simple' as const,
      social_name: 'Loja Exemplo Comércio Ltda',
      address: paulistaAddress,
      company_partner: { name: 'Ana Souza', cpf: '123.456.789-09', birth: '1990-04-01' },
    };
    await company.users.update(profile);
    const error = await rejectionOf(company.users.update(profile));
    const refused = expectStatus(error, UnprocessableEntityError, 422, {
      method: 'POST',
      path: '/users/update',
    });
    expect(Object.keys(refused.fieldErrors)).toEqual(['company_partner']);
    expect(kit.mock.requests.filter((r) => r.path === '/users/update')).toHaveLength(2);
  });
});

describe('@throws {BadRequestError}: users.update answered 400 (spec §4.1)', () => {
  it('is thrown with the status, the call and what the service said', async () => {
    const kit = setUp();
    kit.mock.failNext({
      status: 400,
      path: '/users/update',
      body: { message: 'Invalid request.' },
    });
    const error = await rejectionOf(
      kit.seller.users.update({
        name: 'Ana Souza',
        cpf: '123.456.789-09',
        birth: '1990-04-01',
        address: paulistaAddress,
      }),
    );
    const invalid = expectStatus(error, BadRequestError, 400, {
      method: 'POST',
      path: '/users/update',
    });
    expect(invalid.message).toBe('POST /users/update → 400 Bad Request: Invalid request.');
  });
});

describe('@throws {UnprocessableEntityError}: what the service alone can judge', () => {
  it('refunds.request with a user_id naming no user: fieldErrors names it, sent once', async () => {
    const kit = setUp();
    const transaction = kit.mock.addTransaction(1_000, { seller: kit.mock.sellers.person.code });
    const path = `/financial/refund/${transaction}`;
    const error = await rejectionOf(
      kit.seller.refunds.request(transaction, { user_id: 'usr_none' }),
    );
    const refused = expectStatus(error, UnprocessableEntityError, 422, { method: 'POST', path });
    expect(Object.keys(refused.fieldErrors)).toEqual(['user_id']);
    expect(kit.mock.requests.filter((r) => r.path === path)).toHaveLength(1);
  });

  it('bankAccounts.update: the service refusal reaches fieldErrors', async () => {
    const kit = setUp();
    const path = '/users/bank-accounts/bnk_7Hq2Lx9P';
    kit.mock.failNext({
      status: 422,
      path,
      body: {
        message: 'The bank code is invalid.',
        errors: { bank_code: ['The bank code is invalid.'] },
      },
    });
    const error = await rejectionOf(
      kit.seller.bankAccounts.update('bnk_7Hq2Lx9P', { bank_code: '999' }),
    );
    const refused = expectStatus(error, UnprocessableEntityError, 422, { method: 'POST', path });
    expect(refused.fieldErrors).toEqual({ bank_code: ['The bank code is invalid.'] });
    expect(refused.message).toMatch(/→ 422 Unprocessable Entity: The bank code is invalid\.$/);
  });
});

describe('@throws {ConflictError}: statements.export answered 409 with no export in it', () => {
  it('is thrown with the body kept, where a 409 carrying the running export is a result', async () => {
    const kit = setUp();
    const path = '/financial/account-statement/export-report';
    kit.mock.failNext({ status: 409, path, body: { message: 'Another export is running.' } });
    const error = await rejectionOf(
      kit.seller.statements.export({
        format: 'csv',
        filter: { betweenDates: '01/10/2026,31/10/2026' },
      }),
    );
    const conflict = expectStatus(error, ConflictError, 409, { method: 'POST', path });
    expect(conflict.body).toEqual({ message: 'Another export is running.' });
    expect(conflict.message).toMatch(/: Another export is running\.$/);
  });
});

describe('@throws {RequestValidationError}: an empty or dot path parameter, nothing sent', () => {
  for (const hash of ['', '.', '..']) {
    it(`products.retrieve(${JSON.stringify(hash)}) names the parameter`, async () => {
      const kit = setUp();
      const error = await rejectionOf(kit.client.products.retrieve(hash));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.path).toEqual(['productHash']);
      expect(kit.mock.requests).toHaveLength(0);
    });
  }
});

describe('requestAndWait aborted: @throws {OutcomeUnknownError} while the request is out, {APIUserAbortError} in the wait', () => {
  it('aborted while its refund request awaits its answer: OutcomeUnknownError, cause the abort', async () => {
    const kit = setUp();
    const transaction = kit.mock.addTransaction(1_000, { seller: kit.mock.sellers.person.code });
    const path = `/financial/refund/${transaction}`;
    kit.mock.failNext({ method: 'POST', path, delayMs: 30_000 });
    const controller = new AbortController();
    const call = rejectionOf(
      kit.seller.refunds.requestAndWait(transaction, {}, { signal: controller.signal }),
    );
    await waitFor(() => kit.mock.requests.some((r) => r.method === 'POST'), 'the refund request');
    controller.abort(new Error('shutting down'));
    const error = await call;
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(APIUserAbortError);
    expect(kit.mock.requests.filter((r) => r.path === path)).toHaveLength(1);
  });

  it("aborted in the wait, the refund accepted: APIUserAbortError, cause the signal's reason", async () => {
    const kit = setUp();
    const transaction = kit.mock.addTransaction(1_000, { seller: kit.mock.sellers.person.code });
    const controller = new AbortController();
    const reason = new Error('shutting down');
    const error = await rejectionOf(
      kit.seller.refunds.requestAndWait(
        transaction,
        {},
        { interval: 60_000, signal: controller.signal, onStatus: () => controller.abort(reason) },
      ),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe(reason);
  });
});
