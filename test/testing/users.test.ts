import { describe, expect, it } from 'vitest';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing';
import { call, clientHeaders } from './helpers';

function personForm(): FormData {
  const form = new FormData();
  form.set('name', 'Maria Aparecida Souza');
  form.set('address[zip_code]', '01310-100');
  form.set('address[city]', 'São Paulo');
  form.set('address[state]', 'SP');
  form.set('address[country]', 'Brasil');
  form.set('address[street]', 'Avenida Paulista');
  form.set('address[street_number]', '1000');
  form.set('address[neighborhood]', 'Bela Vista');
  form.set('address[is_default]', '1');
  form.set('phones[0][type]', 'mobile');
  form.set('phones[0][ddd]', '11');
  form.set('phones[0][number]', '912345678');
  form.set('cpf', '529.982.247-25');
  form.set('birth', '1988-04-12');
  form.set(
    'avatar',
    new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' }),
  );
  return form;
}

function updateProfile(mock: MockPartnerApi, form: FormData, publicToken: string) {
  return mock.fetch(`${mock.baseUrl}/users/update`, {
    method: 'POST',
    headers: clientHeaders(mock, { Authorization: `Bearer ${publicToken}` }),
    body: form,
  });
}

describe('mock API profile and bank accounts', () => {
  it('updates a person profile from real multipart with bracket keys, booleans and a file', async () => {
    const mock = createMockPartnerApi();
    const res = await updateProfile(mock, personForm(), mock.sellers.person.publicToken);
    expect(res.status).toBe(200);
    const user = (await res.json()) as Record<string, unknown>;
    expect(user).toMatchObject({
      code: mock.sellers.person.code,
      type: 'person',
      address: { zip_code: '01310-100', is_default: true },
      phones: [{ type: 'mobile', ddd: '11', number: '912345678', ddi: '55' }],
      avatar: expect.stringMatching(/\.png$/),
      public_token: mock.sellers.person.publicToken,
    });
    expect(mock.requests.at(-1)?.body).toMatchObject({
      'address[is_default]': '1',
      avatar: { name: 'me.png', type: 'image/png', size: 4 },
    });
  });

  it('answers a Laravel 422 with dot-form keys for a bad multipart body', async () => {
    const mock = createMockPartnerApi();
    const form = personForm();
    form.set('name', 'Jo');
    form.set('phones[0][number]', '123');
    const res = await updateProfile(mock, form, mock.sellers.person.publicToken);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.errors).toEqual({
      name: ['The name must be at least 3 characters.'],
      'phones.0.number': ['The phones.0.number must be between 8 and 9 digits.'],
    });
    expect(body.message).toBe('The name must be at least 3 characters. (and 1 more error)');
  });

  it('requires the tax id of the seller type and the company partner on the first update only', async () => {
    const mock = createMockPartnerApi();
    const form = personForm();
    form.delete('cpf');
    form.delete('birth');
    form.set('cnpj', '11.222.333/0001-81');
    form.set('company_type', 'simple');
    form.set('social_name', 'Editora Horizonte Digital Ltda');
    const token = mock.sellers.company.publicToken;

    const first = await updateProfile(mock, form, token);
    expect(first.status).toBe(422);
    expect(((await first.json()) as { errors: object }).errors).toHaveProperty('company_partner');

    form.set('company_partner[name]', 'Roberto Lima');
    form.set('company_partner[cpf]', '529.982.247-25');
    form.set('company_partner[birth]', '1975-09-30');
    expect((await updateProfile(mock, form, token)).status).toBe(200);
    const again = await updateProfile(mock, form, token);
    expect(again.status).toBe(422);
    expect(((await again.json()) as { errors: object }).errors).toHaveProperty('company_partner');

    const person = personForm();
    person.delete('cpf');
    const noCpf = await updateProfile(mock, person, mock.sellers.person.publicToken);
    expect(((await noCpf.json()) as { errors: object }).errors).toHaveProperty('cpf');
  });

  it('asks a person under 18 for the emancipation fields', async () => {
    const mock = createMockPartnerApi();
    const form = personForm();
    form.set('birth', `${new Date().getUTCFullYear() - 16}-01-01`);
    const res = await updateProfile(mock, form, mock.sellers.person.publicToken);
    expect(res.status).toBe(422);
    const { errors } = (await res.json()) as { errors: object };
    expect(Object.keys(errors).sort()).toEqual(['emancipated_document', 'is_emancipated']);
  });

  it("refuses true and false sent as text for a boolean field, as Laravel's boolean rule does", async () => {
    const mock = createMockPartnerApi();
    const form = personForm();
    form.set('address[is_default]', 'true');
    form.set('is_emancipated', 'false');
    const res = await updateProfile(mock, form, mock.sellers.person.publicToken);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: unknown }).errors).toEqual({
      'address.is_default': ['The address.is default field must be true or false.'],
      is_emancipated: ['The is emancipated field must be true or false.'],
    });
  });

  it('answers 400 to a profile update that is not multipart', async () => {
    const mock = createMockPartnerApi();
    const res = await call(
      mock,
      'POST',
      '/users/update',
      { name: 'Maria' },
      {
        Authorization: `Bearer ${mock.sellers.person.publicToken}`,
      },
    );
    expect(res.status).toBe(400);
  });

  it('updates a bank account and sends it back to review', async () => {
    const mock = createMockPartnerApi();
    const company = { Authorization: `Bearer ${mock.sellers.company.publicToken}` };
    const path = `/users/bank-accounts/${mock.bankAccounts.bank}`;
    const res = await call(
      mock,
      'POST',
      path,
      {
        holder_name: 'Editora Horizonte Digital Ltda',
        receiver_type: 'pix',
        pix_key: '11.222.333/0001-81',
        bank_code: '341',
      },
      company,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: mock.bankAccounts.bank,
      receiver_type: 'pix',
      pix_key: '11.222.333/0001-81',
      status: 'pending',
    });
    const bad = await call(mock, 'POST', path, { receiver_type: 'wire' }, company);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ receiver_type: ['The selected receiver type is invalid.'] });
    expect((await call(mock, 'POST', '/users/bank-accounts/bnk_nope', {})).status).toBe(404);
  });

  it('updates only the fields a bank account has: keys an object inherits are not its fields', async () => {
    const mock = createMockPartnerApi();
    const company = { Authorization: `Bearer ${mock.sellers.company.publicToken}` };
    const path = `/users/bank-accounts/${mock.bankAccounts.bank}`;
    const before = (await call(mock, 'POST', path, { holder_name: 'Editora G' }, company)).body;
    // Own keys, as JSON.parse makes them on the wire.
    const hostile = JSON.parse(
      '{"holder_name":"Editora H","toString":"x","valueOf":"y","hasOwnProperty":"z",' +
        '"constructor":"c","__proto__":{"status":"approved"}}',
    );
    const res = await call(mock, 'POST', path, hostile, company);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, holder_name: 'Editora H' });
    const after = await call(mock, 'POST', path, { holder_name: 'Editora I' }, company);
    expect(after.body).toEqual({ ...before, holder_name: 'Editora I' });
  });
});
