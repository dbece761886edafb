import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type Anticipation,
  type AnticipationConfirmation,
  type ConfirmAnticipationParams,
  type ListAnticipationsParams,
  type PagePromise,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/index';
import { envelope, wireAnticipation } from '../helpers/kit-fixtures';
import {
  BASE_URL,
  CLIENT_TOKEN,
  makeClient,
  onlyRequest,
  PUBLIC_TOKEN,
  rejectionOf,
  reply,
  replySequence,
  replyToAnything,
  requests,
  server,
  useMockApi,
} from '../helpers/msw-api';

useMockApi();

const CONFIRMATION = {
  amount: 100000,
  status: 'approved',
  created_at: '2024-03-05T14:00:00-03:00',
};

/** Serves `total` anticipations in the envelope, paged by `page` (default 1) and `per_page` (default 25). */
function serveAnticipations(total: number) {
  server.use(
    http.get(`${BASE_URL}/financial/anticipation`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      const page = Number(query.get('page') ?? 1);
      const perPage = Number(query.get('per_page') ?? 25);
      const from = (page - 1) * perPage;
      const anticipations = Array.from(
        { length: Math.max(0, Math.min(perPage, total - from)) },
        (_, i) => wireAnticipation(`ant_${from + i + 1}`),
      );
      return HttpResponse.json(
        envelope({
          anticipations,
          pagination: {
            current_page: page,
            from: from + 1,
            per_page: perPage,
            to: from + anticipations.length,
            total,
            last_page: Math.max(1, Math.ceil(total / perPage)),
          },
        }),
      );
    }),
  );
}

describe('anticipations.confirm', () => {
  it('sends POST confirm/{hash} with the scenario in the body and both tokens', async () => {
    reply('post', '/financial/anticipation/confirm/:hash', CONFIRMATION);
    const result = await makeClient()
      .forUser(PUBLIC_TOKEN)
      .anticipations.confirm('ant_1', { scenario: 'above' });

    const sent = onlyRequest();
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/financial/anticipation/confirm/ant_1');
    expect(sent.query).toEqual({});
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(sent.headers.get('authorization')).toBe(`Bearer ${PUBLIC_TOKEN}`);
    expect(sent.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await sent.json()).toEqual({ scenario: 'above' });
    expect(result).toEqual(CONFIRMATION);
    expectTypeOf(result).toEqualTypeOf<AnticipationConfirmation>();
  });

  it('reads the confirmation from an envelope too', async () => {
    reply('post', '/financial/anticipation/confirm/:hash', envelope(CONFIRMATION));
    expect(await makeClient().anticipations.confirm('ant_1', { scenario: 'below' })).toEqual(
      CONFIRMATION,
    );
    expect(await onlyRequest().json()).toEqual({ scenario: 'below' });
  });

  it('reads null fields and extra keys', async () => {
    const odd = { amount: null, status: 'scheduled', created_at: null, id: 7 };
    reply('post', '/financial/anticipation/confirm/:hash', envelope(odd));
    expect(await makeClient().anticipations.confirm('ant_1', { scenario: 'above' })).toEqual(odd);
  });

  it.each([
    ['bare', { ...CONFIRMATION, amount: '100000' }],
    ['in an envelope', envelope({ ...CONFIRMATION, amount: '100000' })],
  ])('throws ResponseValidationError on a wrong-typed field (%s)', async (_what, body) => {
    reply('post', '/financial/anticipation/confirm/:hash', body);
    const error = await rejectionOf(
      makeClient().anticipations.confirm('ant_1', { scenario: 'above' }),
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toEqual(body);
  });

  it('is not replayed after a 500 (a confirmation moves money)', async () => {
    reply('post', '/financial/anticipation/confirm/:hash', { message: 'boom' }, { status: 500 });
    await rejectionOf(
      makeClient({ maxRetries: 2 }).anticipations.confirm('ant_1', { scenario: 'above' }),
    );
    expect(requests()).toHaveLength(1);
  });

  it('is replayed after a 429, which the service did not act on', async () => {
    replySequence(
      'post',
      '/financial/anticipation/confirm/:hash',
      HttpResponse.json({ message: 'slow down' }, { status: 429, headers: { 'retry-after': '0' } }),
      HttpResponse.json(CONFIRMATION),
    );
    await makeClient({ maxRetries: 1 }).anticipations.confirm('ant_1', { scenario: 'above' });
    expect(requests()).toHaveLength(2);
  });

  it('gives status and headers through .withResponse()', async () => {
    reply('post', '/financial/anticipation/confirm/:hash', CONFIRMATION, { status: 201 });
    const { data, response } = await makeClient()
      .anticipations.confirm('ant_1', { scenario: 'above' })
      .withResponse();
    expect(response.status).toBe(201);
    expect(data.amount).toBe(100000);
  });

  it('percent-encodes the anticipation hash', async () => {
    replyToAnything(CONFIRMATION);
    await makeClient().anticipations.confirm('ant 1/2', { scenario: 'above' });
    expect(onlyRequest().path).toBe('/financial/anticipation/confirm/ant%201%2F2');
  });

  it.each(['', '.', '..'])('refuses the hash %j before sending', async (hash) => {
    const error = await rejectionOf(
      makeClient().anticipations.confirm(hash, { scenario: 'above' }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['anticipationHash']);
    expect(requests()).toHaveLength(0);
  });

  it.each([
    ['another value', { scenario: 'middle' }],
    ['no scenario', {}],
    ['upper case', { scenario: 'ABOVE' }],
  ])('refuses %s as the scenario before sending', async (_what, params) => {
    const error = await rejectionOf(
      makeClient().anticipations.confirm('ant_1', params as ConfirmAnticipationParams),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual([['scenario']]);
    expect(requests()).toHaveLength(0);
  });
});

describe('anticipations.list', () => {
  it('sends GET /financial/anticipation and normalises data.pagination', async () => {
    serveAnticipations(30);
    const page = await makeClient().anticipations.list({ per_page: 25 });

    const sent = onlyRequest();
    expect(sent.method).toBe('GET');
    expect(sent.path).toBe('/financial/anticipation');
    expect(sent.query).toEqual({ per_page: '25' });
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(page.data).toHaveLength(25);
    expect(page.data[0]).toEqual(wireAnticipation('ant_1'));
    expect(page.pagination).toEqual({ current_page: 1, last_page: 2, per_page: 25, total: 30 });
    expect(page.hasNextPage()).toBe(true);
    const second = await page.getNextPage();
    expect(second.data.map((a) => a.hash)).toEqual([
      'ant_26',
      'ant_27',
      'ant_28',
      'ant_29',
      'ant_30',
    ]);
    expect(second.hasNextPage()).toBe(false);
    expect(requests()[1]?.query).toEqual({ per_page: '25', page: '2' });
  });

  it('walks every page with for await and stops at last_page', async () => {
    serveAnticipations(250);
    const hashes: (string | null)[] = [];
    for await (const anticipation of makeClient().anticipations.list({ per_page: 100 })) {
      hashes.push(anticipation.hash);
    }
    expect(hashes).toHaveLength(250);
    expect(new Set(hashes).size).toBe(250);
    expect(requests()).toHaveLength(3);
  });

  it('makes no second request when the loop breaks on the first page', async () => {
    serveAnticipations(250);
    for await (const _anticipation of makeClient().anticipations.list({ per_page: 100 })) break;
    expect(requests()).toHaveLength(1);
  });

  it('reads anticipations created outside the API (hash null), unknown statuses and null fields', async () => {
    const odd = { ...wireAnticipation(null), status: 'cancelled', fee: null, bank: 'x' };
    reply(
      'get',
      '/financial/anticipation',
      envelope({ anticipations: [odd], pagination: null, cached: true }),
    );
    const page = await makeClient().anticipations.list();
    expect(page.data).toEqual([odd]);
    expect(page.pagination).toEqual({ current_page: 1, last_page: 1, per_page: 1, total: 1 });
    expect(page.hasNextPage()).toBe(false);
  });

  it('throws ResponseValidationError naming a wrong-typed field', async () => {
    const body = envelope({ anticipations: [{ ...wireAnticipation(), net_value: '97500' }] });
    reply('get', '/financial/anticipation', body);
    const error = (await rejectionOf(makeClient().anticipations.list())) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i) => i.path)).toEqual([['data', 'anticipations', 0, 'net_value']]);
    expect(error.body).toEqual(body);
  });

  it.each([
    ['page', 1],
    ['page', 5000],
    ['per_page', 1],
    ['per_page', 100],
  ] as const)('sends %s = %i (inside the limit)', async (field, value) => {
    serveAnticipations(3);
    await makeClient().anticipations.list({ [field]: value });
    expect(onlyRequest().query[field]).toBe(String(value));
  });

  it.each([
    ['page', 0],
    ['page', 2.5],
    ['per_page', 0],
    ['per_page', 101],
  ] as const)('refuses %s = %d before sending', async (field, value) => {
    const error = await rejectionOf(makeClient().anticipations.list({ [field]: value }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual([[field]]);
    expect(requests()).toHaveLength(0);
  });
});

describe('anticipations types', () => {
  it('exports the parameter and result types from the package entry', () => {
    const client = makeClient();
    expectTypeOf(client.anticipations.confirm)
      .parameter(1)
      .toEqualTypeOf<ConfirmAnticipationParams>();
    expectTypeOf<ConfirmAnticipationParams['scenario']>().toEqualTypeOf<'above' | 'below'>();
    expectTypeOf(
      client.anticipations.confirm,
    ).returns.resolves.toEqualTypeOf<AnticipationConfirmation>();
    expectTypeOf(client.anticipations.list)
      .parameter(0)
      .toEqualTypeOf<ListAnticipationsParams | undefined>();
    expectTypeOf(client.anticipations.list).returns.toEqualTypeOf<PagePromise<Anticipation>>();
    expectTypeOf<Anticipation['hash']>().toEqualTypeOf<string | null>();
  });
});
