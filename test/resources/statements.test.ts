import { HttpResponse } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ConflictError,
  type ExportStatementParams,
  RequestValidationError,
  ResponseValidationError,
  type StatementExport,
  type StatementExportRequestResult,
} from '../../src/index';
import { envelope, wireExport } from '../helpers/kit-fixtures';
import {
  CLIENT_TOKEN,
  makeClient,
  onlyRequest,
  PUBLIC_TOKEN,
  rejectionOf,
  reply,
  replySequence,
  replyToAnything,
  requests,
  useMockApi,
} from '../helpers/msw-api';

useMockApi();

const EXPORT_PATH = '/financial/account-statement/export-report';

describe('statements.export', () => {
  it('sends POST export-report with the JSON body and both tokens, and returns the export', async () => {
    reply('post', EXPORT_PATH, envelope(wireExport()));
    const params: ExportStatementParams = {
      format: 'csv',
      filter: { betweenDates: '01/01/2024,31/01/2024' },
    };
    const result = await makeClient().forUser(PUBLIC_TOKEN).statements.export(params);

    const sent = onlyRequest();
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe(EXPORT_PATH);
    expect(sent.query).toEqual({});
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(sent.headers.get('authorization')).toBe(`Bearer ${PUBLIC_TOKEN}`);
    expect(sent.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await sent.json()).toEqual(params);
    expect(result).toEqual({ ...wireExport(), alreadyRunning: false });
    expectTypeOf(result).toEqualTypeOf<StatementExportRequestResult>();
  });

  it.each([
    ['YYYY-MM-DD strings', { start: '2024-01-01', end: '2024-01-31' }, '01/01/2024,31/01/2024'],
    [
      'Dates, read as São Paulo calendar days',
      { start: new Date('2024-01-01T12:00:00-03:00'), end: new Date('2024-02-01T01:00:00Z') },
      '01/01/2024,31/01/2024',
    ],
    ['one single day', { start: '2024-02-29', end: '2024-02-29' }, '29/02/2024,29/02/2024'],
  ])(
    'sends betweenDates given as { start, end } with %s as the wire string',
    async (_what, range, wire) => {
      reply('post', EXPORT_PATH, envelope(wireExport()));
      await makeClient().statements.export({ format: 'pdf', filter: { betweenDates: range } });
      expect(await onlyRequest().json()).toEqual({
        format: 'pdf',
        filter: { betweenDates: wire },
      });
    },
  );

  it('sends a wire betweenDates trimmed, and a blank one as no filter value', async () => {
    reply('post', EXPORT_PATH, envelope(wireExport()));
    reply('post', EXPORT_PATH, envelope(wireExport()));
    const client = makeClient().forUser(PUBLIC_TOKEN);
    await client.statements.export({ filter: { betweenDates: ' 01/01/2024,31/01/2024\n' } });
    await client.statements.export({ format: ' csv ', filter: { betweenDates: '   ' } });
    const [first, second] = requests();
    expect(await first!.json()).toEqual({ filter: { betweenDates: '01/01/2024,31/01/2024' } });
    expect(await second!.json()).toEqual({ format: 'csv', filter: { betweenDates: '' } });
  });

  it.each([
    ['a day that does not exist', '31/02/2025,01/03/2025'],
    ['29 February of a common year', '29/02/2025,01/03/2025'],
    ['a month 13', '01/13/2025,31/12/2025'],
  ])('refuses a wire betweenDates with %s before sending', async (_what, betweenDates) => {
    const error = await rejectionOf(
      makeClient().forUser(PUBLIC_TOKEN).statements.export({ filter: { betweenDates } }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path.join('.'))).toEqual([
      'filter.betweenDates',
    ]);
    expect(requests()).toHaveLength(0);
  });

  it.each([
    ['after the year 9999', new Date(Date.UTC(10_000, 0, 1, 12))],
    ['before the year 0', new Date(Date.UTC(-5, 0, 1, 12))],
  ])('refuses a Date %s, which DD/MM/YYYY cannot write, before sending', async (_what, end) => {
    const start = new Date(Date.UTC(2024, 0, 1, 12));
    const error = await rejectionOf(
      makeClient()
        .forUser(PUBLIC_TOKEN)
        .statements.export({ filter: { betweenDates: { start, end } } }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path.join('.'))).toEqual([
      'filter.betweenDates.end',
    ]);
    expect(requests()).toHaveLength(0);
  });

  it('sends a Date of a year before 1000 with the four digits of DD/MM/YYYY', async () => {
    reply('post', EXPORT_PATH, envelope(wireExport()));
    const start = new Date(Date.UTC(999, 4, 5, 12));
    await makeClient()
      .forUser(PUBLIC_TOKEN)
      .statements.export({ filter: { betweenDates: { start, end: '9999-12-31' } } });
    expect(await onlyRequest().json()).toEqual({
      filter: { betweenDates: '05/05/0999,31/12/9999' },
    });
  });

  it('sends filter keys the spec does not show through extraBody (params refuse them)', async () => {
    reply('post', EXPORT_PATH, envelope(wireExport()));
    const filter = { betweenDates: { start: '2024-01-01', end: '2024-01-02' } };
    const refused = await rejectionOf(
      makeClient().statements.export({
        format: 'csv',
        filter: { ...filter, type: 'credit' },
      } as never),
    );
    expect(refused).toBeInstanceOf(RequestValidationError);
    expect(requests()).toHaveLength(0);
    await makeClient().statements.export(
      { format: 'csv', filter },
      { extraBody: { filter: { type: 'credit' } } },
    );
    expect(await onlyRequest().json()).toEqual({
      format: 'csv',
      filter: { betweenDates: '01/01/2024,02/01/2024', type: 'credit' },
    });
  });

  it.each([
    ['envelope', envelope({ ...wireExport(), hash: 'exp_running' })],
    ['bare export', { ...wireExport(), hash: 'exp_running' }],
  ])('gives the running export with alreadyRunning on 409 (%s body)', async (_what, body) => {
    reply('post', EXPORT_PATH, body, { status: 409 });
    const result = await makeClient().statements.export({ format: 'csv' });
    expect(result).toEqual({ ...wireExport(), hash: 'exp_running', alreadyRunning: true });
    expect(requests()).toHaveLength(1);
  });

  it.each([
    ['an error envelope', { status: 'error', message: 'An export is already running.' }],
    ['a plain text', 'export already running'],
  ])(
    'gives ConflictError with the raw body on a 409 carrying no export (%s)',
    async (_what, body) => {
      if (typeof body === 'string') {
        replySequence('post', EXPORT_PATH, new HttpResponse(body, { status: 409 }));
      } else {
        reply('post', EXPORT_PATH, body, { status: 409 });
      }
      const error = await rejectionOf(makeClient().statements.export({ format: 'csv' }));
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ status: 409, body, method: 'POST', path: EXPORT_PATH });
      expect(requests()).toHaveLength(1);
    },
  );

  it('still gives ResponseValidationError on a 409 whose data is no export', async () => {
    reply('post', EXPORT_PATH, envelope({ url: 7 }), { status: 409 });
    const error = await rejectionOf(makeClient().statements.export({ format: 'csv' }));
    expect(error).toBeInstanceOf(ResponseValidationError);
  });

  it('is replayed after a 500 (a repeat answers 409 with the running export)', async () => {
    replySequence(
      'post',
      EXPORT_PATH,
      HttpResponse.json({ message: 'boom' }, { status: 500 }),
      HttpResponse.json(envelope(wireExport()), { status: 409 }),
    );
    const result = await makeClient({ maxRetries: 1 }).statements.export({ format: 'csv' });
    expect(result.alreadyRunning).toBe(true);
    expect(requests()).toHaveLength(2);
  });

  it('gives status and headers through .withResponse()', async () => {
    reply('post', EXPORT_PATH, envelope(wireExport()), { status: 409 });
    const { data, response } = await makeClient()
      .statements.export({ format: 'csv' })
      .withResponse();
    expect(response.status).toBe(409);
    expect(data.alreadyRunning).toBe(true);
  });

  it('reads extra keys, unknown statuses and null fields', async () => {
    const odd = { hash: 'exp_1', status: 'queued', url: null, rows: 12 };
    reply('post', EXPORT_PATH, { ...envelope(odd), status: null, message: null, trace: 'abc' });
    expect(await makeClient().statements.export({ format: 'csv' })).toEqual({
      ...odd,
      alreadyRunning: false,
    });
  });

  it('throws ResponseValidationError with the raw body on a wrong-typed field', async () => {
    const body = envelope({ ...wireExport(), url: 42 });
    reply('post', EXPORT_PATH, body);
    const error = await rejectionOf(makeClient().statements.export({ format: 'csv' }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toEqual(body);
    // The answer may come bare or in the envelope: a body with `data` is read as the envelope.
    expect((error as ResponseValidationError).issues).toEqual([
      expect.objectContaining({ path: ['data', 'url'], code: 'invalid_type' }),
    ]);
  });

  it.each([
    ['a wire string in ISO form', '2024-01-01,2024-01-31'],
    ['a wire string with one date', '01/01/2024'],
    ['a day that does not exist', { start: '2024-02-30', end: '2024-03-01' }],
    ['an invalid Date', { start: new Date(Number.NaN), end: '2024-01-01' }],
    ['a number', 20240101],
  ])('refuses betweenDates as %s before sending', async (_what, betweenDates) => {
    const error = await rejectionOf(
      makeClient().statements.export({
        format: 'csv',
        filter: { betweenDates } as ExportStatementParams['filter'],
      }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    const paths = (error as RequestValidationError).issues.map((i) => i.path.slice(0, 2));
    expect(paths).toContainEqual(['filter', 'betweenDates']);
    expect(requests()).toHaveLength(0);
  });
});

describe('statements.retrieve', () => {
  it.each([
    [
      'an envelope',
      envelope({ hash: 'exp_33q', status: 'finished', url: 'https://files.test/e.csv' }),
    ],
    ['a bare export', { hash: 'exp_33q', status: 'finished', url: 'https://files.test/e.csv' }],
  ])('sends GET export-report/{hash} and reads %s', async (_what, body) => {
    reply('get', `${EXPORT_PATH}/:hash`, body);
    const result = await makeClient().statements.retrieve('exp_33q');
    const sent = onlyRequest();
    expect(sent.method).toBe('GET');
    expect(sent.path).toBe(`${EXPORT_PATH}/exp_33q`);
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(result).toEqual({
      hash: 'exp_33q',
      status: 'finished',
      url: 'https://files.test/e.csv',
    });
    expectTypeOf(result).toEqualTypeOf<StatementExport>();
  });

  it('percent-encodes the export hash', async () => {
    replyToAnything(wireExport());
    await makeClient().statements.retrieve('exp/1?x');
    expect(onlyRequest().path).toBe(`${EXPORT_PATH}/exp%2F1%3Fx`);
  });

  it.each(['', '.', '..'])('refuses the hash %j before sending', async (hash) => {
    const error = await rejectionOf(makeClient().statements.retrieve(hash));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['exportHash']);
    expect(requests()).toHaveLength(0);
  });

  it('throws ResponseValidationError when the export has no hash', async () => {
    reply('get', `${EXPORT_PATH}/:hash`, envelope({ status: 'processing', url: null }));
    expect(await rejectionOf(makeClient().statements.retrieve('exp_33q'))).toBeInstanceOf(
      ResponseValidationError,
    );
  });
});

describe('statements types', () => {
  it('exports the parameter and result types from the package entry', () => {
    const client = makeClient();
    expectTypeOf(client.statements.export).parameter(0).toEqualTypeOf<ExportStatementParams>();
    expectTypeOf(
      client.statements.export,
    ).returns.resolves.toEqualTypeOf<StatementExportRequestResult>();
    expectTypeOf(client.statements.retrieve).returns.resolves.toEqualTypeOf<StatementExport>();
    expectTypeOf<StatementExportRequestResult['alreadyRunning']>().toEqualTypeOf<boolean>();
  });
});
