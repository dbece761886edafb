/**
 * The SDK against a service written from the spec alone, as an independent Laravel implementation
 * would answer: the tables of spec §2 and §4, in the encodings such a service produces. A PHP
 * array that is empty has no JSON object form, so `json_encode` writes an empty object column
 * (`old` of a created tier, a product's `metadata`, a one-time offer's `subscription`) as `[]`.
 * The SDK returns it as it came: reading a field of it gives `undefined`, as of `{}`.
 */
import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../src/index';
import { json, type StubServer, stubsClosedAfterEach, withLogin } from '../helpers/stub-server';

const stub = stubsClosedAfterEach();
let server: StubServer | undefined;

async function clientAnswering(status: number, body: unknown) {
  server = await stub(withLogin((_req, res) => json(res, status, body)));
  return new PartnerClient({
    baseUrl: server.baseUrl,
    clientId: 'client-id-1',
    clientSecret: 'client-secret-1',
    maxRetries: 0,
  }).forUser('public-token-1');
}

const operator = { name: 'Operator', email: 'op@platform.test' };

describe('an independent service encoding an empty object as []', () => {
  it('feeTiers.history reads a created tier with old [] and a deleted one with new []', async () => {
    const records = [
      {
        action: 'delete',
        old: { fixed_fee: 249, percentage: 4.99 },
        new: [],
        observation: 'Faixa removida',
        changed_by: operator,
        created_at: '2025-01-02T10:00:00.000000Z',
      },
      {
        action: 'create',
        old: [],
        new: { fixed_fee: 249, percentage: 4.99 },
        observation: 'Faixa criada',
        changed_by: operator,
        created_at: '2025-01-01T10:00:00.000000Z',
      },
    ];
    const seller = await clientAnswering(200, { status: 'success', message: 'OK', data: records });
    const changes = await seller.feeTiers.history();
    expect(changes).toEqual(records);
    expect(changes[1]?.old?.fixed_fee).toBeUndefined();
  });

  it('products.retrieve reads metadata [] and metadata.links []', async () => {
    const product = {
      hash: 'prod_1',
      name: 'Curso',
      type: 'course',
      status: 'approved',
      created_at: '2025-01-01 10:00:00',
      updated_at: '2025-01-01 10:00:00',
      metadata: [],
    };
    const seller = await clientAnswering(200, product);
    expect((await seller.products.retrieve('prod_1')).metadata?.links).toBeUndefined();
    await server?.close();
    const linked = await clientAnswering(200, { ...product, metadata: { links: [] } });
    expect((await linked.products.retrieve('prod_1')).metadata?.links?.sales_page_url).toBe(
      undefined,
    );
    await server?.close();
    const listed = await clientAnswering(200, { ...product, metadata: ['not', 'empty'] });
    await expect(listed.products.retrieve('prod_1')).rejects.toMatchObject({
      name: 'ResponseValidationError',
    });
  });

  it('refuses an answer that is [] itself where a resource was expected', async () => {
    const seller = await clientAnswering(200, []);
    await expect(seller.products.retrieve('prod_1')).rejects.toMatchObject({
      name: 'ResponseValidationError',
      issues: [{ path: [] }],
    });
  });

  it('offers.update reads a one-time offer with subscription [] and freight []', async () => {
    const offer = {
      code: 'off_1',
      name: 'Oferta',
      type_of_charge: 'one-time',
      price: 9990,
      credit_card_installments_options: [],
      created_at: '2025-01-01 10:00:00',
      updated_at: '2025-01-01 10:00:00',
      subscription: [],
      freight: [],
    };
    const seller = await clientAnswering(200, offer);
    const updated = await seller.offers.update('prod_1', 'off_1', { name: 'Oferta' });
    expect(updated).toEqual(offer);
    expect(updated.subscription?.max_charges).toBeUndefined();
  });

  it('still names the field of a wrong type inside such an object', async () => {
    const seller = await clientAnswering(200, {
      code: 'off_1',
      subscription: { max_charges: '12' },
    });
    await expect(seller.offers.update('prod_1', 'off_1', { name: 'Oferta' })).rejects.toMatchObject(
      { name: 'ResponseValidationError', issues: [{ path: ['subscription', 'max_charges'] }] },
    );
  });
});

describe('an independent service wrapping a single resource in data, as a Laravel JsonResource does', () => {
  const wrapped = (resource: object) => ({ data: resource });

  it('bankAccounts.update reads the account bare or under data', async () => {
    const account = {
      code: 'ba_1',
      holder_name: 'Ana Souza',
      receiver_type: 'pix',
      pix_key: 'ana@example.com',
      bank_code: '341',
      status: 'pending',
    };
    const seller = await clientAnswering(200, wrapped(account));
    const params = { receiver_type: 'pix', pix_key: 'ana@example.com' } as const;
    expect(await seller.bankAccounts.update('ba_1', params)).toEqual(account);
  });

  it('products.retrieve and offers.update read the resource under data', async () => {
    const product = { hash: 'prod_1', name: 'Curso', type: 'course', status: 'approved' };
    const reader = await clientAnswering(200, wrapped(product));
    expect(await reader.products.retrieve('prod_1')).toEqual(product);
    await server?.close();
    const offer = { code: 'off_1', name: 'Oferta', type_of_charge: 'one-time', price: 9990 };
    const writer = await clientAnswering(200, wrapped(offer));
    expect(await writer.offers.update('prod_1', 'off_1', { name: 'Oferta' })).toEqual(offer);
  });

  it('users.update reads the user under data', async () => {
    const user = {
      name: 'Ana Souza',
      code: 'usr_1',
      status: 'active',
      type: 'person',
      email: 'ana@example.com',
      public_token: 'public-token-1',
    };
    const seller = await clientAnswering(200, wrapped(user));
    const address = {
      zip_code: '01310-100',
      city: 'São Paulo',
      state: 'SP',
      country: 'Brasil',
      street: 'Avenida Paulista',
      street_number: '1000',
      neighborhood: 'Bela Vista',
    };
    expect(
      await seller.users.update({
        name: 'Ana Souza',
        address,
        cpf: '123.456.789-09',
        birth: '1990-04-01',
      }),
    ).toEqual(user);
  });
});
