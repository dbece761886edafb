import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { InternalServerError } from '../../src/index';
import { paulistaAddress } from '../helpers/addresses';
import { wireBankAccount, wireUser } from '../helpers/kit-fixtures';
import {
  makeClient,
  PUBLIC_TOKEN,
  rejectionOf,
  replySequence,
  requests,
  useMockApi,
} from '../helpers/msw-api';

/**
 * The spec does not say what a repeat of `POST /users/bank-accounts/{hash}` or `POST /users/update`
 * does (§4.1, §4.5). The SDK takes it as harmless (an update states what it sets) and repeats both
 * after a transient failure; the assumptions guide gives `maxRetries: 0` on the call as the
 * same-day way out for a service where a repeat is not harmless.
 */

useMockApi();

const unavailable = () => HttpResponse.json({ message: 'Service Unavailable' }, { status: 503 });

describe('the updates a repeat is taken to leave alone', () => {
  it('repeats a bank-account update and a profile update after a 503, by default', async () => {
    replySequence(
      'post',
      '/users/bank-accounts/:hash',
      unavailable(),
      HttpResponse.json(wireBankAccount()),
    );
    replySequence('post', '/users/update', unavailable(), HttpResponse.json(wireUser()));
    const seller = makeClient({ maxRetries: 1 }).forUser(PUBLIC_TOKEN);
    await seller.bankAccounts.update('acc_77a1', {
      receiver_type: 'pix',
      pix_key: 'ana@example.com',
    });
    await seller.users.update({
      name: 'Ana Souza',
      address: paulistaAddress,
      cpf: '123.456.789-09',
      birth: '1990-04-01',
    });
    expect(requests().map((request) => request.path)).toEqual([
      '/users/bank-accounts/acc_77a1',
      '/users/bank-accounts/acc_77a1',
      '/users/update',
      '/users/update',
    ]);
  });

  it('sends each once with maxRetries: 0 on the call, failing with the answer', async () => {
    replySequence(
      'post',
      '/users/bank-accounts/:hash',
      unavailable(),
      HttpResponse.json(wireBankAccount()),
    );
    replySequence('post', '/users/update', unavailable(), HttpResponse.json(wireUser()));
    const seller = makeClient({ maxRetries: 1 }).forUser(PUBLIC_TOKEN);
    const once = { maxRetries: 0 };
    const account = seller.bankAccounts.update('acc_77a1', { receiver_type: 'bank' }, once);
    expect(await rejectionOf(account)).toBeInstanceOf(InternalServerError);
    const profile = seller.users.update(
      { name: 'Ana Souza', address: paulistaAddress, cpf: '123.456.789-09', birth: '1990-04-01' },
      once,
    );
    expect(await rejectionOf(profile)).toBeInstanceOf(InternalServerError);
    expect(requests()).toHaveLength(2);
  });
});
