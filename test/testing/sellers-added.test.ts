/**
 * Sellers added to the kit (`mock.addSeller`), seen through the SDK's seller clients: each is
 * accepted as a bearer, owns nothing until data is added for it, and is kept apart from every other
 * seller, seeded or added, by every rule that keeps the two seeded sellers apart.
 */
import { NotFoundError, PartnerClient, UnprocessableEntityError } from 'partner-sdk';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { paulistaAddress as address } from '../helpers/addresses';

function clientOf(mock: MockPartnerApi) {
  return new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
    maxRetries: 0,
    logLevel: 'off',
  });
}

describe('mock.addSeller', () => {
  it('gives a seller with its own code and token, accepted as a bearer and owning nothing', async () => {
    const mock = createMockPartnerApi();
    const added = mock.addSeller({ type: 'company', name: 'Loja Cinco Ltda' });
    expect(added).toMatchObject({ type: 'company', code: expect.stringMatching(/^usr_/) });
    const seeded = mock.sellers.flatMap((s) => [s.code, s.publicToken]);
    expect(seeded).not.toContain(added.code);
    expect(seeded).not.toContain(added.publicToken);
    const seller = clientOf(mock).forUser(added.publicToken);
    expect(await seller.feeTiers.history()).toEqual([]);
    const page = await seller.anticipations.list();
    expect(page.data).toEqual([]);
    await expect(
      seller.bankAccounts.update(mock.bankAccounts.pix, { holder_name: 'Outra' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const { hash, offerCode } = mock.products.course;
    await expect(seller.offers.update(hash, offerCode, { price: 100 })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    // The seeded two are still the list's two.
    expect(mock.sellers).toHaveLength(2);
  });

  it('keeps five sellers apart: transactions, refunds, exports and confirmations', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0, exportPolls: 5 });
    const client = clientOf(mock);
    const added = [
      mock.addSeller({ type: 'person' }),
      mock.addSeller({ type: 'company' }),
      mock.addSeller({ type: 'person' }),
    ];
    const all = [...mock.sellers, ...added];
    expect(new Set(all.map((s) => s.publicToken)).size).toBe(5);
    const sellers = all.map((s) => client.forUser(s.publicToken));
    const own = all.map((s) => mock.addTransaction(1000, { seller: s.code }));
    for (const [i, seller] of sellers.entries()) {
      expect(await seller.refunds.request(own[i]!)).toMatchObject({ kind: 'accepted' });
      const other = own[(i + 1) % own.length]!;
      await expect(seller.refunds.list(other)).rejects.toBeInstanceOf(NotFoundError);
      await expect(seller.refunds.request(other)).rejects.toBeInstanceOf(NotFoundError);
    }
    const params = { format: 'csv', filter: { betweenDates: '01/01/2025,31/01/2025' } };
    const exports = [];
    for (const seller of sellers) exports.push(await seller.statements.export(params));
    expect(new Set(exports.map((e) => e.hash)).size).toBe(5);
    await expect(sellers[2]!.statements.retrieve(exports[3]!.hash)).rejects.toBeInstanceOf(
      NotFoundError,
    );

    const hash = mock.anticipations.confirmable[0]!;
    await sellers[3]!.anticipations.confirm(hash, { scenario: 'above' });
    await expect(
      sellers[4]!.anticipations.confirm(hash, { scenario: 'above' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const list = await sellers[3]!.anticipations.list();
    expect(list.data.map((a) => a.hash)).toEqual([hash]);
    expect((await sellers[2]!.anticipations.list()).data).toEqual([]);
  });

  it("follows the stored type's rules on a profile update, as the seeded sellers do", async () => {
    const mock = createMockPartnerApi();
    const client = clientOf(mock);
    const company = client.forUser(mock.addSeller({ type: 'company' }).publicToken);
    const asPerson = { name: 'Loja Seis', address, cpf: '529.982.247-25', birth: '1988-04-12' };
    const refused = await company.users.update(asPerson).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnprocessableEntityError);
    expect((refused as UnprocessableEntityError).fieldErrors).toHaveProperty('cnpj');
    const asCompany = {
      name: 'Loja Seis',
      address,
      cnpj: '11.222.333/0001-81',
      company_type: 'simple' as const,
      social_name: 'Loja Seis Ltda',
    };
    const noPartner = await company.users.update(asCompany).catch((error: unknown) => error);
    expect((noPartner as UnprocessableEntityError).fieldErrors).toHaveProperty('company_partner');
    const partner = { name: 'Ana Souza', cpf: '529.982.247-25', birth: '1980-01-01' };
    const user = await company.users.update({ ...asCompany, company_partner: partner });
    expect(user).toMatchObject({ type: 'company', name: 'Loja Seis' });

    const person = mock.addSeller({ type: 'person' });
    const updated = await client.forUser(person.publicToken).users.update(asPerson);
    expect(updated).toMatchObject({ code: person.code, type: 'person', cpf: '529.982.247-25' });
  });

  it('refuses a type it does not know, and takes an added seller in addTransaction', () => {
    const mock = createMockPartnerApi();
    expect(() => mock.addSeller({ type: 'robot' as 'person' })).toThrow(TypeError);
    const added = mock.addSeller({ type: 'person' });
    expect(mock.addTransaction(500, { seller: added.code })).toMatch(/^trx_/);
  });
});
