/**
 * The kit keeps each seller's data apart, as the service must: exports, anticipations, fee tiers
 * and offers are the bearer's own; and the anticipation list is cached for 10 minutes per account
 * and filter set (spec §4.8) on the kit's clock.
 */
import { describe, expect, it } from 'vitest';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing';
import { call } from './helpers';

const as = (mock: MockPartnerApi, who: 'person' | 'company') => ({
  Authorization: `Bearer ${mock.sellers[who].publicToken}`,
});

const EXPORT = '/financial/account-statement/export-report';
const params = { format: 'csv', filter: { betweenDates: '01/01/2025,31/01/2025' } };

describe('the kit keeps two sellers apart', () => {
  it('a running export blocks the same parameters for its own seller only', async () => {
    const mock = createMockPartnerApi({ exportPolls: 5 });
    const first = await call(mock, 'POST', EXPORT, params, as(mock, 'person'));
    expect(first.status).toBe(200);
    const other = await call(mock, 'POST', EXPORT, params, as(mock, 'company'));
    expect(other.status).toBe(200);
    expect(other.body.data.hash).not.toBe(first.body.data.hash);
    const again = await call(mock, 'POST', EXPORT, params, as(mock, 'person'));
    expect(again.status).toBe(409);
    expect(again.body.data.hash).toBe(first.body.data.hash);
    const theirs = await call(
      mock,
      'GET',
      `${EXPORT}/${first.body.data.hash}`,
      undefined,
      as(mock, 'company'),
    );
    expect(theirs.status).toBe(404);
  });

  it("answers 404 to a seller updating another seller's bank account", async () => {
    const mock = createMockPartnerApi();
    const path = `/users/bank-accounts/${mock.bankAccounts.bank}`;
    const theirs = await call(mock, 'POST', path, { holder_name: 'Maria' }, as(mock, 'person'));
    expect(theirs).toMatchObject({ status: 404, body: { message: 'Bank account not found.' } });
    const own = await call(mock, 'POST', path, { holder_name: 'Editora H' }, as(mock, 'company'));
    expect(own).toMatchObject({ status: 200, body: { holder_name: 'Editora H' } });
    const pix = `/users/bank-accounts/${mock.bankAccounts.pix}`;
    expect((await call(mock, 'POST', pix, {}, as(mock, 'company'))).status).toBe(404);
  });

  it("answers 404 to a seller requesting, listing or polling a refund of another seller's transaction", async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const trx = mock.addTransaction(4990, { seller: mock.sellers.company.code });
    const refund = `/financial/refund/${trx}`;
    const notFound = { status: 404, body: { message: 'Transaction not found.' } };
    expect(await call(mock, 'POST', refund, {}, as(mock, 'person'))).toMatchObject(notFound);
    expect(await call(mock, 'GET', refund, undefined, as(mock, 'person'))).toMatchObject(notFound);
    const own = await call(mock, 'POST', refund, {}, as(mock, 'company'));
    expect(own).toMatchObject({ status: 202, body: { data: { transaction_hash: trx } } });
    const status = `${refund}/status`;
    expect((await call(mock, 'GET', status, undefined, as(mock, 'person'))).status).toBe(404);
    expect((await call(mock, 'GET', status, undefined, as(mock, 'company'))).status).toBe(200);
    const listed = await call(mock, 'GET', refund, undefined, as(mock, 'company'));
    expect(listed.body.data).toHaveLength(1);
    // Added without a seller, as the seeded ones are: the first seller to name it may refund it.
    const shared = mock.addTransaction();
    expect(
      (await call(mock, 'POST', `/financial/refund/${shared}`, {}, as(mock, 'person'))).status,
    ).toBe(202);
    expect(() => mock.addTransaction(100, { seller: 'usr_nobody' })).toThrow(RangeError);
  });

  it("lists each seller's own anticipations, a confirmation landing in the confirmer's list", async () => {
    const mock = createMockPartnerApi();
    const person = await call(
      mock,
      'GET',
      '/financial/anticipation?per_page=100',
      undefined,
      as(mock, 'person'),
    );
    const company = await call(
      mock,
      'GET',
      '/financial/anticipation?per_page=100',
      undefined,
      as(mock, 'company'),
    );
    const hashes = (res: typeof person) =>
      res.body.data.anticipations.map((a: { hash: string | null }) => a.hash);
    expect(person.body.data.pagination.total).toBe(30);
    expect(company.body.data.pagination.total).toBe(2);
    expect(hashes(company)).not.toContain(hashes(person)[0]);

    const hash = mock.anticipations.confirmable[0]!;
    const confirmed = await call(
      mock,
      'POST',
      `/financial/anticipation/confirm/${hash}`,
      { scenario: 'above' },
      as(mock, 'company'),
    );
    expect(confirmed.status).toBe(200);
    mock.advanceClock(10 * 60_000);
    const companyAfter = await call(
      mock,
      'GET',
      '/financial/anticipation?per_page=100',
      undefined,
      as(mock, 'company'),
    );
    const personAfter = await call(
      mock,
      'GET',
      '/financial/anticipation?per_page=100',
      undefined,
      as(mock, 'person'),
    );
    expect(hashes(companyAfter)[0]).toBe(hash);
    expect(hashes(personAfter)).not.toContain(hash);
  });

  it("answers each seller's own fee-tier history", async () => {
    const mock = createMockPartnerApi();
    const person = await call(
      mock,
      'GET',
      '/users/fee-tiers/history',
      undefined,
      as(mock, 'person'),
    );
    const company = await call(
      mock,
      'GET',
      '/users/fee-tiers/history',
      undefined,
      as(mock, 'company'),
    );
    expect(person.body.data).toHaveLength(3);
    expect(company.body.data).toHaveLength(1);
    expect(company.body.data[0].observation).not.toBe(person.body.data.at(-1).observation);
  });

  it('updates an offer only for the seller whose product it is', async () => {
    const mock = createMockPartnerApi();
    const { hash, offerCode } = mock.products.course;
    const path = `/products/${hash}/offers/${offerCode}`;
    const theirs = await call(mock, 'PUT', path, { price: 100 }, as(mock, 'company'));
    expect(theirs).toMatchObject({ status: 404, body: { message: 'Offer not found.' } });
    expect(mock.getOffer(hash, offerCode)?.price).not.toBe(100);
    const own = await call(mock, 'PUT', path, { price: 100 }, as(mock, 'person'));
    expect(own).toMatchObject({ status: 200, body: { price: 100 } });
  });
});

describe('the anticipation list is cached 10 minutes per account and filter set (spec §4.8)', () => {
  it('serves the stale list until 10 minutes of the kit clock have passed, then the fresh one', async () => {
    const mock = createMockPartnerApi();
    const list = (query = '') =>
      call(mock, 'GET', `/financial/anticipation${query}`, undefined, as(mock, 'person'));
    const before = await list();
    const hash = mock.anticipations.confirmable[1]!;
    await call(
      mock,
      'POST',
      `/financial/anticipation/confirm/${hash}`,
      { scenario: 'below' },
      as(mock, 'person'),
    );

    mock.advanceClock(9 * 60_000 + 59_000);
    const stale = await list();
    expect(stale.body.data).toEqual(before.body.data);
    // Another filter set is computed on its own, so it already shows the confirmation.
    const otherFilter = await list('?per_page=10');
    expect(otherFilter.body.data.anticipations[0].hash).toBe(hash);

    mock.advanceClock(1_000);
    const fresh = await list();
    expect(fresh.body.data.anticipations[0].hash).toBe(hash);
    expect(fresh.body.data.pagination.total).toBe(before.body.data.pagination.total + 1);
  });

  it("keeps one seller's cached list from another's", async () => {
    const mock = createMockPartnerApi();
    const list = (who: 'person' | 'company') =>
      call(mock, 'GET', '/financial/anticipation', undefined, as(mock, who));
    const person = await list('person');
    const company = await list('company');
    expect(company.body.data.pagination.total).not.toBe(person.body.data.pagination.total);
  });

  it('refuses to move the clock backwards', () => {
    expect(() => createMockPartnerApi().advanceClock(-1)).toThrow(RangeError);
  });
});

describe('a bank-account update and the status the spec shows no transition for', () => {
  it('keeps the status by default, and resets it to pending only behind its assumedRules switch', async () => {
    const path = (mock: MockPartnerApi) => `/users/bank-accounts/${mock.bankAccounts.pix}`;
    const lax = createMockPartnerApi();
    const kept = await call(lax, 'POST', path(lax), { holder_name: 'Maria A. Souza' });
    expect(kept.status).toBe(200);
    expect(kept.body.status).not.toBe('pending');
    const strict = createMockPartnerApi({ assumedRules: { bankAccountUpdateResetsStatus: true } });
    const reset = await call(strict, 'POST', path(strict), { holder_name: 'Maria A. Souza' });
    expect(reset.body.status).toBe('pending');
  });
});
