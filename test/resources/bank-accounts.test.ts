import { HttpResponse } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type BankAccount,
  RequestValidationError,
  ResponseValidationError,
  type UpdateBankAccountParams,
} from '../../src/index';
import { wireBankAccount } from '../helpers/kit-fixtures';
import {
  CLIENT_TOKEN,
  makeClient,
  onlyRequest,
  PUBLIC_TOKEN,
  rejectionOf,
  reply,
  replySequence,
  replyToAnything,
  requests,
  useMockApi,
} from '../helpers/msw-api';

useMockApi();

const PIX: UpdateBankAccountParams = {
  holder_name: 'Ana Souza',
  receiver_type: 'pix',
  pix_key: 'ana@example.com',
  bank_code: '341',
};

describe('bankAccounts.update', () => {
  it('sends POST /users/bank-accounts/{hash} with the JSON body and both tokens', async () => {
    reply('post', '/users/bank-accounts/:hash', wireBankAccount());
    const account = await makeClient().forUser(PUBLIC_TOKEN).bankAccounts.update('acc_77a1', PIX);

    const sent = onlyRequest();
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/users/bank-accounts/acc_77a1');
    expect(sent.query).toEqual({});
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(sent.headers.get('authorization')).toBe(`Bearer ${PUBLIC_TOKEN}`);
    expect(sent.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await sent.json()).toEqual(PIX);
    expect(account).toEqual(wireBankAccount());
    expectTypeOf(account).toEqualTypeOf<BankAccount>();
  });

  it('sends the bank variant and a null pix key as given', async () => {
    reply('post', '/users/bank-accounts/:hash', { ...wireBankAccount(), receiver_type: 'bank' });
    const params: UpdateBankAccountParams = {
      receiver_type: 'bank',
      pix_key: null,
      bank_code: '001',
      agency: '1234',
      account: '99887',
      account_type: 'checking',
      holder_name: 'Ana Souza',
      holder_document: '123.456.789-09',
    };
    await makeClient().bankAccounts.update('acc_77a1', params);
    expect(await onlyRequest().json()).toEqual(params);
  });

  it('is replayed after a 500 (the same data twice leaves the same account)', async () => {
    replySequence(
      'post',
      '/users/bank-accounts/:hash',
      HttpResponse.json({}, { status: 503 }),
      HttpResponse.json(wireBankAccount()),
    );
    await makeClient({ maxRetries: 1 }).bankAccounts.update('acc_77a1', PIX);
    expect(requests()).toHaveLength(2);
  });

  it('reads unknown receiver types and statuses, null fields and extra keys', async () => {
    const odd = {
      ...wireBankAccount(),
      receiver_type: 'checking_account',
      status: 'under_review',
      pix_key: null,
      branch_number: null,
      reason: null,
      bank_document: null,
      bank_name: 'Itaú',
    };
    reply('post', '/users/bank-accounts/:hash', odd);
    expect(await makeClient().bankAccounts.update('acc_77a1', PIX)).toEqual(odd);
  });

  it('throws ResponseValidationError naming a wrong-typed field', async () => {
    const body = { ...wireBankAccount(), account_number: 123456 };
    reply('post', '/users/bank-accounts/:hash', body);
    const error = (await rejectionOf(
      makeClient().bankAccounts.update('acc_77a1', PIX),
    )) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i) => i.path)).toEqual([['account_number']]);
    expect(error.body).toEqual(body);
  });

  it('gives status and headers through .withResponse()', async () => {
    reply('post', '/users/bank-accounts/:hash', wireBankAccount());
    const { response } = await makeClient().bankAccounts.update('acc_77a1', PIX).withResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/json/);
  });

  it('percent-encodes the account hash', async () => {
    replyToAnything(wireBankAccount());
    await makeClient().bankAccounts.update('acc/7 a', PIX);
    expect(onlyRequest().path).toBe('/users/bank-accounts/acc%2F7%20a');
  });

  it.each(['', '.', '..'])('refuses the hash %j before sending', async (hash) => {
    const error = await rejectionOf(makeClient().bankAccounts.update(hash, PIX));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['accountHash']);
    expect(requests()).toHaveLength(0);
  });

  // Spec §2.4: holder_name and pix_key 191, branch and account numbers 20, check digits 3.
  const LIMITS = [
    ['holder_name', 191],
    ['pix_key', 191],
    ['branch_number', 20],
    ['branch_check_digit', 3],
    ['account_number', 20],
    ['account_check_digit', 3],
  ] as const;

  it.each(LIMITS)('sends %s at its maximum of %i characters', async (field, max) => {
    reply('post', '/users/bank-accounts/:hash', wireBankAccount());
    await makeClient().bankAccounts.update('acc_77a1', { [field]: '9'.repeat(max) });
    expect(await onlyRequest().json()).toEqual({ [field]: '9'.repeat(max) });
  });

  it.each(LIMITS)('refuses %s over %i characters before sending', async (field, max) => {
    const error = await rejectionOf(
      makeClient().bankAccounts.update('acc_77a1', { [field]: '9'.repeat(max + 1) }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual([[field]]);
    expect(requests()).toHaveLength(0);
  });

  it('refuses a receiver_type other than pix or bank before sending', async () => {
    const error = await rejectionOf(
      makeClient().bankAccounts.update('acc_77a1', {
        receiver_type: 'wire' as UpdateBankAccountParams['receiver_type'],
      }),
    );
    expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual([
      ['receiver_type'],
    ]);
    expect(requests()).toHaveLength(0);
  });
});

describe('bankAccounts types', () => {
  it('exports the parameter and result types from the package entry', () => {
    const client = makeClient();
    expectTypeOf(client.bankAccounts.update).parameter(1).toEqualTypeOf<UpdateBankAccountParams>();
    expectTypeOf(client.bankAccounts.update).returns.resolves.toEqualTypeOf<BankAccount>();
    expectTypeOf<BankAccount['code']>().toEqualTypeOf<string>();
  });
});
