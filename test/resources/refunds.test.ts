import { HttpResponse } from 'msw';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  type Refund,
  type RefundRequestResult,
  type RefundStatus,
  type RequestRefundParams,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/index';
import { envelope, wireRefund } from '../helpers/kit-fixtures';
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
  useMockApi,
} from '../helpers/msw-api';

useMockApi();

const accepted = (location?: string) =>
  reply(
    'post',
    '/financial/refund/:hash',
    {
      status: 'processing',
      message: 'Reembolso em processamento',
      data: { transaction_hash: 'tx_abc' },
    },
    { status: 202, headers: location ? { location } : {} },
  );

describe('refunds.request', () => {
  it('sends POST /financial/refund/{hash} with the JSON body and both tokens', async () => {
    accepted(`${BASE_URL}/financial/refund/tx_abc/status`);
    const params: RequestRefundParams = {
      reason: 'Cliente desistiu',
      observation: 'via suporte',
      fraud_confirmed: false,
      refund_type: 'full',
      cancel_subscription: true,
      user_id: 'usr_8f2k1',
    };
    await makeClient().forUser(PUBLIC_TOKEN).refunds.request('tx_abc', params);

    const sent = onlyRequest();
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/financial/refund/tx_abc');
    expect(sent.query).toEqual({});
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(sent.headers.get('authorization')).toBe(`Bearer ${PUBLIC_TOKEN}`);
    expect(sent.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await sent.json()).toEqual(params);
  });

  it('sends an empty JSON object when given no parameters', async () => {
    accepted();
    await makeClient().refunds.request('tx_abc');
    expect(await onlyRequest().json()).toEqual({});
  });

  it("gives kind 'accepted' with the Location URL on 202", async () => {
    const location = `${BASE_URL}/financial/refund/tx_abc/status`;
    accepted(location);
    const result = await makeClient().refunds.request('tx_abc');
    expect(result).toEqual({ kind: 'accepted', transactionHash: 'tx_abc', statusUrl: location });
  });

  it('resolves a relative Location against the request URL', async () => {
    accepted('/api/v1/financial/refund/tx_abc/status');
    const result = await makeClient().refunds.request('tx_abc');
    expect(result.kind === 'accepted' && result.statusUrl).toBe(
      `${BASE_URL}/financial/refund/tx_abc/status`,
    );
  });

  it('leaves statusUrl undefined without a Location header', async () => {
    accepted();
    const result = await makeClient().refunds.request('tx_abc');
    expect(result).toEqual({ kind: 'accepted', transactionHash: 'tx_abc', statusUrl: undefined });
  });

  it.each([
    ['no data', { status: 'processing', message: 'Reembolso em processamento' }],
    ['a null data', { status: 'processing', message: 'ok', data: null }],
    ['a bare message', { message: 'Refund requested' }],
    ['an empty body', ''],
  ])(
    "gives kind 'accepted' on a 202 whose body has %s: the status is the outcome",
    async (_what, body) => {
      const location = `${BASE_URL}/financial/refund/tx_abc/status`;
      replySequence(
        'post',
        '/financial/refund/:hash',
        body === ''
          ? new HttpResponse(null, { status: 202, headers: { location } })
          : HttpResponse.json(body, { status: 202, headers: { location } }),
      );
      const result = await makeClient().refunds.request('tx_abc');
      expect(result).toEqual({ kind: 'accepted', transactionHash: 'tx_abc', statusUrl: location });
    },
  );

  it('still checks the data of a 202 that has some: a wrong-typed field throws', async () => {
    reply('post', '/financial/refund/:hash', { data: { transaction_hash: 42 } }, { status: 202 });
    expect(await rejectionOf(makeClient().refunds.request('tx_abc'))).toBeInstanceOf(
      ResponseValidationError,
    );
  });

  it("gives kind 'existing' with the active refund on 200", async () => {
    reply('post', '/financial/refund/tx_abc', envelope(wireRefund()));
    const result = await makeClient().refunds.request('tx_abc');
    expect(result).toEqual({ kind: 'existing', refund: wireRefund() });
    if (result.kind === 'existing') expectTypeOf(result.refund).toEqualTypeOf<Refund>();
  });

  it('checks the existing refund of a 200: a wrong-typed field throws ResponseValidationError', async () => {
    const body = envelope({ ...wireRefund(), amount: 'lots' });
    reply('post', '/financial/refund/tx_abc', body);
    const error = await rejectionOf(makeClient().refunds.request('tx_abc'));
    expect(error).toBeInstanceOf(ResponseValidationError);
    const { issues, body: raw, status } = error as ResponseValidationError;
    expect(status).toBe(200);
    expect(raw).toEqual(body);
    expect(issues.length).toBeGreaterThan(0);
  });

  it('after a 500 reads the refunds first and replays only when none was created', async () => {
    replySequence(
      'post',
      '/financial/refund/tx_abc',
      HttpResponse.json({ message: 'boom' }, { status: 500 }),
      HttpResponse.json(envelope(wireRefund())),
    );
    reply('get', '/financial/refund/tx_abc', envelope([]));
    const result = await makeClient({ maxRetries: 1 }).refunds.request('tx_abc', { reason: 'x' });
    expect(result).toEqual({ kind: 'existing', refund: wireRefund() });
    expect(requests().map((r) => r.method)).toEqual(['POST', 'GET', 'POST']);
    expect(await requests()[2]?.json()).toEqual({ reason: 'x' });
  });

  it('gives status and headers through .withResponse()', async () => {
    accepted('/api/v1/financial/refund/tx_abc/status');
    const { data, response } = await makeClient().refunds.request('tx_abc').withResponse();
    expect(response.status).toBe(202);
    expect(data.kind).toBe('accepted');
  });

  it('sends a reason of exactly 1000 characters', async () => {
    accepted();
    await makeClient().refunds.request('tx_abc', { reason: 'r'.repeat(1000) });
    expect(((await onlyRequest().json()) as { reason: string }).reason).toHaveLength(1000);
  });

  it.each([
    ['reason', '1001 characters', 'r'.repeat(1001)],
    ['fraud_confirmed', 'a string', 'yes'],
    ['cancel_subscription', 'a number', 1],
    ['observation', 'a number', 42],
    ['user_id', 'null', null],
  ])('refuses %s as %s before sending', async (field, _what, value) => {
    const error = await rejectionOf(makeClient().refunds.request('tx_abc', { [field]: value }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual([[field]]);
    expect(requests()).toHaveLength(0);
  });
});

describe('refunds.list', () => {
  it('sends GET /financial/refund/{hash} and returns the refunds from the envelope', async () => {
    reply('get', '/financial/refund/tx_abc', envelope([wireRefund()]));
    const refunds = await makeClient().refunds.list('tx_abc');
    const sent = onlyRequest();
    expect(sent.method).toBe('GET');
    expect(sent.path).toBe('/financial/refund/tx_abc');
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(refunds).toEqual([wireRefund()]);
    expectTypeOf(refunds).toEqualTypeOf<Refund[]>();
  });

  it('reads extra keys, unknown statuses and null optional fields', async () => {
    const odd = {
      ...wireRefund(),
      status: 'chargeback',
      amount: null,
      observation: null,
      created_at: null,
      gateway: { id: 'g-1' },
    };
    reply('get', '/financial/refund/tx_abc', { ...envelope([odd]), meta: { trace: 'x' } });
    expect(await makeClient().refunds.list('tx_abc')).toEqual([odd]);
  });

  it('throws ResponseValidationError with the issues and the raw body on a wrong type', async () => {
    const body = envelope([{ ...wireRefund(), hash: 123 }]);
    reply('get', '/financial/refund/tx_abc', body);
    const error = (await rejectionOf(
      makeClient().refunds.list('tx_abc'),
    )) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((issue) => issue.path)).toEqual([['data', 0, 'hash']]);
    expect(error.body).toEqual(body);
  });

  it("with validateResponses 'warn' logs the mismatch and returns the body as sent", async () => {
    const body = envelope([{ ...wireRefund(), hash: 123 }]);
    reply('get', '/financial/refund/tx_abc', body);
    const warn = vi.fn();
    const client = makeClient({
      validateResponses: 'warn',
      logLevel: 'warn',
      logger: { warn, error: vi.fn(), info: vi.fn(), debug: vi.fn() },
    });
    expect(await client.refunds.list('tx_abc')).toEqual(body.data);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/unexpected response shape/);
  });

  it("with validateResponses 'off' returns the body unchecked and logs nothing", async () => {
    const body = envelope([{ ...wireRefund(), hash: 123 }]);
    reply('get', '/financial/refund/tx_abc', body);
    const warn = vi.fn();
    const client = makeClient({
      validateResponses: 'off',
      logLevel: 'debug',
      logger: { warn, error: vi.fn(), info: vi.fn(), debug: vi.fn() },
    });
    expect(await client.refunds.list('tx_abc')).toEqual(body.data);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('refunds.retrieveStatus', () => {
  it('sends GET /financial/refund/{hash}/status and returns data', async () => {
    const data = { ...wireRefund(), status: 'completed' };
    reply('get', '/financial/refund/tx_abc/status', envelope(data));
    const status = await makeClient().refunds.retrieveStatus('tx_abc');
    const sent = onlyRequest();
    expect(sent.method).toBe('GET');
    expect(sent.path).toBe('/financial/refund/tx_abc/status');
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(status).toEqual(data);
    expectTypeOf(status).toEqualTypeOf<RefundStatus>();
  });

  it('reads a bare status body too, the spec showing no shape for it', async () => {
    const bare = { status: 'completed', transaction_hash: 'tx_abc' };
    reply('get', '/financial/refund/tx_abc/status', bare);
    await expect(makeClient().refunds.retrieveStatus('tx_abc')).resolves.toEqual(bare);
    await expect(
      makeClient().refunds.waitForCompletion('tx_abc', { interval: 1 }),
    ).resolves.toEqual(bare);
  });

  it('throws ResponseValidationError when data carries no status', async () => {
    reply('get', '/financial/refund/tx_abc/status', envelope({ hash: 'rfd_91x' }));
    expect(await rejectionOf(makeClient().refunds.retrieveStatus('tx_abc'))).toBeInstanceOf(
      ResponseValidationError,
    );
  });
});

describe('refund path parameters', () => {
  it('percent-encode the transaction hash in every method', async () => {
    replyToAnything(envelope([]));
    const client = makeClient({ validateResponses: 'off' });
    await client.refunds.request('tx/1 2', {});
    await client.refunds.list('tx/1 2');
    await client.refunds.retrieveStatus('tx/1 2');
    expect(requests().map((r) => r.path)).toEqual([
      '/financial/refund/tx%2F1%202',
      '/financial/refund/tx%2F1%202',
      '/financial/refund/tx%2F1%202/status',
    ]);
  });

  it.each(['', '.', '..'])('refuse %j before sending', async (hash) => {
    const client = makeClient();
    for (const call of [
      () => client.refunds.request(hash),
      () => client.refunds.list(hash),
      () => client.refunds.retrieveStatus(hash),
    ]) {
      const error = await rejectionOf(call());
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.path).toEqual(['transactionHash']);
    }
    expect(requests()).toHaveLength(0);
  });
});

describe('refunds types', () => {
  it('exports the parameter and result types from the package entry', () => {
    const client = makeClient();
    expectTypeOf(client.refunds.request)
      .parameter(1)
      .toEqualTypeOf<RequestRefundParams | undefined>();
    expectTypeOf(client.refunds.request).returns.resolves.toEqualTypeOf<RefundRequestResult>();
    expectTypeOf(client.refunds.list).returns.resolves.toEqualTypeOf<Refund[]>();
    expectTypeOf(client.refunds.retrieveStatus).returns.resolves.toEqualTypeOf<RefundStatus>();
    expectTypeOf<Extract<RefundRequestResult, { kind: 'accepted' }>['statusUrl']>().toEqualTypeOf<
      string | undefined
    >();
  });
});
