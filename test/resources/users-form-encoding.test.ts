import { describe, expect, it } from 'vitest';
import { UserSchema } from '../../src/index';
import { paulistaAddress } from '../helpers/addresses';
import { wireUser } from '../helpers/kit-fixtures';
import { makeClient, onlyRequest, PUBLIC_TOKEN, reply, useMockApi } from '../helpers/msw-api';

/**
 * Spec §4.1 sends the profile as multipart/form-data with `address` an object and `phones` an
 * array, and does not show how those travel in a form. The SDK writes them as a Laravel service
 * reads them (`address[zip_code]`, `phones[0][number]`, booleans as `1`/`0`). The assumptions
 * guide gives the same-day way for a service that reads them otherwise: `request()` with a
 * `FormData` of the partner's own, through the seller's client.
 */

useMockApi();

describe('the profile update as a form', () => {
  it('sends nested fields in bracket form and booleans as 1 or 0, by default', async () => {
    reply('post', '/users/update', wireUser());
    const seller = makeClient().forUser(PUBLIC_TOKEN);
    await seller.users.update({
      name: 'Ana Souza',
      cpf: '123.456.789-09',
      birth: '1990-04-01',
      address: { ...paulistaAddress, is_default: true },
      phones: [{ type: 'mobile', number: '912345678' }],
    });
    const form = await onlyRequest().formData();
    expect(form.get('address[zip_code]')).toBe(paulistaAddress.zip_code);
    expect(form.get('address[is_default]')).toBe('1');
    expect(form.get('phones[0][number]')).toBe('912345678');
  });

  it("sends a form of the partner's own encoding through request(), with the seller's credentials", async () => {
    reply('post', '/users/update', wireUser());
    const seller = makeClient().forUser(PUBLIC_TOKEN);
    const form = new FormData();
    form.set('name', 'Ana Souza');
    form.set('address', JSON.stringify(paulistaAddress));
    const user = await seller.request({
      method: 'POST',
      path: '/users/update',
      form,
      schema: UserSchema,
    });
    expect(user.code).toBe(wireUser().code);
    const sent = onlyRequest();
    expect(sent.headers.get('authorization')).toBe(`Bearer ${PUBLIC_TOKEN}`);
    expect(JSON.parse(String((await sent.formData()).get('address')))).toEqual(paulistaAddress);
  });
});
