/**
 * `extraBody` and `extraQuery`, and `request()`'s query and body, go out as given, unchecked by
 * any schema: a value they cannot carry as given is refused before anything is sent, naming where
 * it is, rather than changed on the way (JSON writes `NaN`, `Infinity` and an invalid `Date` as
 * `null`; a form or a query writes the text `NaN`), and a boolean in a query travels as `1`/`0`,
 * as in a form, which is what a Laravel service's `boolean` rule reads (`true` as text it
 * refuses). Through the public client against a loopback stub that records what it received.
 */

import { PartnerClient, RequestValidationError } from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { paulistaAddress } from '../../helpers/addresses';
import { json, type StubServer, stubsClosedAfterEach } from '../../helpers/stub-server';

const startStub = stubsClosedAfterEach();

async function offerStub(): Promise<StubServer> {
  return startStub((_request, res) =>
    json(res, 200, {
      code: 'off_1',
      data: [],
      meta: { current_page: 1, last_page: 1, per_page: 15, total: 0 },
    }),
  );
}

function clientOf(stub: StubServer): PartnerClient {
  return new PartnerClient({
    baseUrl: stub.baseUrl,
    clientToken: 'client-token',
    logLevel: 'off',
    maxRetries: 0,
  });
}

/** The paths of the issues of a call refused before sending; fails when it was sent. */
async function refusedAt(stub: StubServer, call: Promise<unknown>): Promise<unknown[]> {
  const error = await call.then(
    () => expect.unreachable('the call was sent'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(stub.requests).toHaveLength(0);
  return (error as RequestValidationError).issues.map((issue) => issue.path);
}

const profile = {
  name: 'Zoë Ñandú',
  address: paulistaAddress,
  cpf: '529.982.247-25',
  birth: '1988-04-12',
};

describe('extraBody values a body cannot carry as given', () => {
  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['an invalid Date', new Date('not a date')],
  ])('refuses %s in a JSON body, which JSON would send as null', async (_what, value) => {
    const stub = await offerStub();
    const call = clientOf(stub).offers.update(
      'prd_1',
      'off_1',
      { price: 100 },
      { extraBody: { checkout: { fee: value } } },
    );
    expect(await refusedAt(stub, call)).toEqual([['checkout', 'fee']]);
  });

  it('refuses a bigint in a JSON body, which JSON.stringify cannot write, as bad input', async () => {
    const stub = await offerStub();
    const call = clientOf(stub).offers.update(
      'prd_1',
      'off_1',
      { price: 100 },
      { extraBody: { external_ids: [2n ** 60n] } },
    );
    expect(await refusedAt(stub, call)).toEqual([['external_ids', 0]]);
  });

  it.each([
    ['NaN', Number.NaN],
    ['an invalid Date', new Date('not a date')],
  ])('refuses %s in a multipart body', async (_what, value) => {
    const stub = await offerStub();
    const seller = clientOf(stub).forUser('public-token');
    const call = seller.users.update(profile, { extraBody: { extra: value } });
    expect(await refusedAt(stub, call)).toEqual([['extra']]);
  });

  it('sends -0 as 0, a bigint in a form as its digits, and a valid Date as its ISO instant', async () => {
    const stub = await offerStub();
    const client = clientOf(stub);
    const when = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    await client.offers.update('prd_1', 'off_1', { price: -0 }, { extraBody: { when } });
    expect(stub.requests[0]!.body).toBe('{"price":0,"when":"2026-01-02T03:04:05.000Z"}');
    await client.forUser('public-token').users.update(profile, { extraBody: { id: 2n ** 60n } });
    expect(stub.requests[1]!.body).toContain('name="id"\r\n\r\n1152921504606846976\r\n');
  });
});

describe('extraQuery values', () => {
  it('sends a boolean as 1 or 0, as a form does and Laravel reads', async () => {
    const stub = await offerStub();
    await clientOf(stub).products.list({}, { extraQuery: { active: true, archived: false } });
    expect(stub.requests[0]!.path).toBe('/products?active=1&archived=0');
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('refuses %s, which a query would carry as text', async (_what, value) => {
    const stub = await offerStub();
    const call = clientOf(stub).products.list({}, { extraQuery: { min_price: value } });
    expect(await refusedAt(stub, call)).toEqual([['min_price']]);
  });
});

describe('request() values, which no schema checks either', () => {
  it('refuses NaN in its query and a bigint or an invalid Date in its JSON body', async () => {
    const stub = await offerStub();
    const client = clientOf(stub);
    const inQuery = client.request({ method: 'GET', path: '/users/fee-tiers', query: { n: NaN } });
    expect(await refusedAt(stub, inQuery)).toEqual([['n']]);
    const body = { tier: { min: 10n, since: new Date('nope') } };
    const inBody = client.request({ method: 'POST', path: '/users/fee-tiers', body });
    expect(await refusedAt(stub, inBody)).toEqual([
      ['tier', 'min'],
      ['tier', 'since'],
    ]);
  });
});
