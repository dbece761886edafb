/**
 * Two sellers on one kit, seen from outside: plain `fetch` over the kit's loopback server (so no
 * SDK can hide what the kit answers) and the SDK's seller clients. Whatever one seller does, the
 * other sees none of it: not its refunds (on a seeded transaction as on one added for it), not its
 * confirmed anticipations, not through another seller's hash, a hash of no transaction, a case
 * change, a name every object inherits (`__proto__`, `constructor`), or concurrent calls.
 */
import { NotFoundError } from 'partner-sdk';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { kitClients } from '../helpers/kit-clients';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Who = 'person' | 'company';

// biome-ignore lint/suspicious/noExplicitAny: tests read wire bodies loosely and assert on them.
type Loose = any;

/** The kit on loopback, and a plain `fetch` as one seller (or with any bearer string). */
async function onLoopback(mock: MockPartnerApi) {
  const server = await mock.listen();
  servers.push(server);
  const as =
    (who: Who | { bearer: string }) =>
    async (
      method: string,
      path: string,
      body?: unknown,
    ): Promise<{ status: number; body: Loose }> => {
      const bearer = typeof who === 'string' ? mock.sellers[who].publicToken : who.bearer;
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          'X-Api-Client-Token': mock.credentials.clientToken,
          Authorization: `Bearer ${bearer}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
  return { person: as('person'), company: as('company'), bearer: (b: string) => as({ bearer: b }) };
}

const NOT_FOUND = { status: 404, body: { message: 'Transaction not found.' } };

describe('refunds: a seller never sees or touches what another seller did', () => {
  it('a seeded transaction one seller refunded is not found by the other: list, status and request', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const { person, company } = await onLoopback(mock);
    const trx = mock.transactions.refundable[0]!;
    const path = `/financial/refund/${trx}`;
    expect((await person('POST', path, {})).status).toBe(202);
    expect(await company('GET', path)).toMatchObject(NOT_FOUND);
    expect((await company('GET', `${path}/status`)).status).toBe(404);
    expect(await company('POST', path, {})).toMatchObject(NOT_FOUND);
    const own = await person('GET', path);
    expect(own.body.data).toHaveLength(1);
  });

  it('a seeded refund is the first reader’s: the other seller finds neither the transaction nor its refund', async () => {
    const mock = createMockPartnerApi();
    const { person, company } = await onLoopback(mock);
    const path = `/financial/refund/${mock.transactions.withActiveRefund}`;
    const first = await company('GET', path);
    expect(first.body.data[0].status).toBe('requested');
    expect(await person('GET', path)).toMatchObject(NOT_FOUND);
    expect(await person('POST', path, {})).toMatchObject(NOT_FOUND);
  });

  it('concurrent refund requests of both sellers: one seller wins a shared transaction, each sees only its own refunds', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const { person, company } = await onLoopback(mock);
    const shared = mock.transactions.refundable[1]!;
    const mine = mock.addTransaction(1000, { seller: mock.sellers.person.code });
    const theirs = mock.addTransaction(2000, { seller: mock.sellers.company.code });
    const answers = await Promise.all([
      person('POST', `/financial/refund/${shared}`, {}),
      company('POST', `/financial/refund/${shared}`, {}),
      person('POST', `/financial/refund/${mine}`, {}),
      company('POST', `/financial/refund/${theirs}`, {}),
      person('POST', `/financial/refund/${theirs}`, {}),
      company('POST', `/financial/refund/${mine}`, {}),
    ]);
    expect(answers.map((a) => a.status).slice(2)).toEqual([202, 202, 404, 404]);
    expect(
      answers
        .slice(0, 2)
        .map((a) => a.status)
        .sort(),
    ).toEqual([202, 404]);
    const winner = answers[0]!.status === 202 ? person : company;
    const loser = winner === person ? company : person;
    expect((await winner('GET', `/financial/refund/${shared}`)).body.data).toHaveLength(1);
    expect(await loser('GET', `/financial/refund/${shared}`)).toMatchObject(NOT_FOUND);
    expect((await company('GET', `/financial/refund/${theirs}`)).body.data).toHaveLength(1);
    expect(await company('GET', `/financial/refund/${mine}`)).toMatchObject(NOT_FOUND);
  });

  it.each([
    ['another seller’s hash, upper-cased', (h: string) => h.toUpperCase()],
    ['another seller’s hash, with a trailing space', (h: string) => `${h} `],
    ['a hash of no transaction', () => 'trx_NoSuchOne'],
    ['__proto__', () => '__proto__'],
    ['constructor', () => 'constructor'],
    ['hasOwnProperty', () => 'hasOwnProperty'],
  ])('answers 404 to a refund call naming %s', async (_, hashOf) => {
    const mock = createMockPartnerApi();
    const { person } = await onLoopback(mock);
    const theirs = mock.addTransaction(1000, { seller: mock.sellers.company.code });
    const path = `/financial/refund/${encodeURIComponent(hashOf(theirs))}`;
    expect(await person('POST', path, {})).toMatchObject(NOT_FOUND);
    expect(await person('GET', path)).toMatchObject(NOT_FOUND);
    expect((await person('GET', `${path}/status`)).status).toBe(404);
  });

  it.each([['__proto__'], ['constructor'], ['toString']])(
    'refuses %s as a bearer with 401, as any unknown token',
    async (bearer) => {
      const mock = createMockPartnerApi();
      const kit = await onLoopback(mock);
      const answer = await kit.bearer(bearer)('GET', '/users/fee-tiers/history');
      expect(answer).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
    },
  );

  it("refuses another seller's token with its case changed", async () => {
    const mock = createMockPartnerApi();
    const kit = await onLoopback(mock);
    const token = mock.sellers.company.publicToken;
    const changed = token === token.toUpperCase() ? token.toLowerCase() : token.toUpperCase();
    expect((await kit.bearer(changed)('GET', '/users/fee-tiers/history')).status).toBe(401);
  });
});

describe('every seller-scoped route, called by both sellers at once', () => {
  it("answers each seller its own data, and 404 for the other's", async () => {
    const mock = createMockPartnerApi({ exportPolls: 5 });
    const { person, company } = await onLoopback(mock);
    const EXPORT = '/financial/account-statement/export-report';
    const params = { format: 'csv', filter: { betweenDates: '01/01/2025,31/01/2025' } };
    const [pe, ce, pf, cf, pa, ca] = await Promise.all([
      person('POST', EXPORT, params),
      company('POST', EXPORT, params),
      person('GET', '/users/fee-tiers/history'),
      company('GET', '/users/fee-tiers/history'),
      person('GET', '/financial/anticipation?per_page=100'),
      company('GET', '/financial/anticipation?per_page=100'),
    ]);
    expect([pe!.status, ce!.status]).toEqual([200, 200]);
    expect(pe!.body.data.hash).not.toBe(ce!.body.data.hash);
    expect([pf!.body.data.length, cf!.body.data.length]).toEqual([3, 1]);
    expect([pa!.body.data.pagination.total, ca!.body.data.pagination.total]).toEqual([30, 2]);
    const lookups = await Promise.all([
      company('GET', `${EXPORT}/${pe!.body.data.hash}`),
      person('GET', `${EXPORT}/${ce!.body.data.hash}`),
      person('POST', `/users/bank-accounts/${mock.bankAccounts.bank}`, { holder_name: 'X' }),
      company('POST', `/users/bank-accounts/${mock.bankAccounts.pix}`, { holder_name: 'X' }),
    ]);
    expect(lookups.map((answer) => answer.status)).toEqual([404, 404, 404, 404]);
  });
});

describe('anticipations: a confirmation is the confirming seller’s alone', () => {
  it('answers 404, not 409, to a seller confirming an anticipation another seller confirmed', async () => {
    const mock = createMockPartnerApi();
    const { person, company } = await onLoopback(mock);
    const path = `/financial/anticipation/confirm/${mock.anticipations.confirmable[0]}`;
    expect((await company('POST', path, { scenario: 'above' })).status).toBe(200);
    expect(await person('POST', path, { scenario: 'above' })).toMatchObject({
      status: 404,
      body: { message: 'Anticipation not found.' },
    });
    // Its own repeat is still told apart: the anticipation was already confirmed.
    expect((await company('POST', path, { scenario: 'above' })).status).toBe(409);
  });
});

describe('two seller clients of the SDK on one kit', () => {
  it("each lists only its own refunds of a seeded transaction, the other's call a NotFoundError", async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const { client, seller: person } = kitClients(mock, { maxRetries: 0 });
    const company = client.forUser(mock.sellers.company.publicToken);
    const trx = mock.transactions.refundable[2]!;
    expect(await person.refunds.request(trx)).toMatchObject({ kind: 'accepted' });
    await expect(company.refunds.list(trx)).rejects.toBeInstanceOf(NotFoundError);
    await expect(company.refunds.request(trx)).rejects.toBeInstanceOf(NotFoundError);
    expect(await person.refunds.list(trx)).toHaveLength(1);
  });
});
