import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/index';
import { paulistaAddress } from '../helpers/addresses';
import { wireUser } from '../helpers/kit-fixtures';
import {
  makeClient,
  onlyRequest,
  PUBLIC_TOKEN,
  rejectionOf,
  reply,
  requests,
  useMockApi,
} from '../helpers/msw-api';

/**
 * Spec §4.1 types `website` as "string (URL)" and `recovery_email` as "string (email)" and states
 * no rule: the SDK reads them as a Laravel service does (an absolute URL, something@something) and
 * refuses others before sending. The assumptions guide promises a partner whose service takes
 * another form the same-day way around: the value in `extraBody`, sent as given.
 */

useMockApi();

const person = {
  name: 'Ana Souza',
  address: paulistaAddress,
  cpf: '123.456.789-09',
  birth: '1990-04-01',
};

describe('the formats spec §4.1 names without a rule', () => {
  it.each([
    ['website', 'www.ana.com.br'],
    ['recovery_email', 'ana'],
  ])('refuses a %s of another form before sending', async (field, value) => {
    const seller = makeClient().forUser(PUBLIC_TOKEN);
    const error = await rejectionOf(seller.users.update({ ...person, [field]: value }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((issue) => issue.path)).toEqual([[field]]);
    expect(requests()).toEqual([]);
  });

  it.each([
    ['website', 'www.ana.com.br'],
    ['recovery_email', 'ana'],
  ])('sends a %s of another form as given through extraBody', async (field, value) => {
    reply('post', '/users/update', wireUser());
    const seller = makeClient().forUser(PUBLIC_TOKEN);
    await seller.users.update(person, { extraBody: { [field]: value } });
    const form = await onlyRequest().formData();
    expect(form.getAll(field)).toEqual([value]);
    expect(form.get('name')).toBe('Ana Souza');
  });
});
