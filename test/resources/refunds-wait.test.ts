import { describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  OutcomeUnknownError,
  PartnerClient,
  PollTimeoutError,
  RequestValidationError,
} from '../../src/index';
import { requestsTo, serversClosedAfterEach } from '../helpers/leak-check';
import { json, type StubServer, sequence } from '../helpers/stub-server';
import { sleep, waitFor } from '../helpers/waits';

const { mockApi, stub } = serversClosedAfterEach();

const clientOf = (server: StubServer) =>
  new PartnerClient({ baseUrl: server.baseUrl, clientToken: 'tok-async', logLevel: 'off' });

const statusBody = (status: string, transaction_hash = 'tx_1') => ({
  status: 'success',
  message: 'ok',
  data: { status, transaction_hash },
});

describe('refunds.requestAndWait against the mock API', () => {
  it('requests (202), polls requested → success → completed and resolves completed after the expected polls', async () => {
    const { mock, client } = await mockApi({ refundPolls: 2 });
    const trx = mock.transactions.refundable[0]!;
    const seen: Array<string | undefined> = [];

    const final = await client.refunds.requestAndWait(
      trx,
      { reason: 'Customer asked' },
      { interval: 10, onStatus: (status) => seen.push(status) },
    );

    expect(final).toMatchObject({ status: 'completed', transaction_hash: trx });
    expect(requestsTo(mock, 'POST', `/financial/refund/${trx}`)).toHaveLength(1);
    // Two polls answer `requested`, the third `success` (still active), the fourth `completed`.
    expect(requestsTo(mock, 'GET', `/financial/refund/${trx}/status`)).toHaveLength(4);
    expect(seen).toEqual(['requested', 'success', 'completed']);
  });

  it('resolves a refund that ends failed with status failed (no exception)', async () => {
    const { mock, client } = await mockApi();
    const trx = mock.addTransaction(4990);
    mock.refundOutcome(trx, 'failed', { polls: 1 });
    await expect(client.refunds.requestAndWait(trx, {}, { interval: 10 })).resolves.toMatchObject({
      status: 'failed',
    });
  });

  it('waits on the active refund when the request is repeated, creating none', async () => {
    const { mock, client } = await mockApi();
    const trx = mock.transactions.refundable[1]!;
    const first = await client.refunds.request(trx);
    const repeat = await client.refunds.request(trx);
    expect(first.kind).toBe('accepted');
    expect(repeat).toMatchObject({ kind: 'existing', refund: { status: 'requested' } });

    const [fromAccepted, fromExisting] = await Promise.all([
      client.refunds.waitForCompletion(first, { interval: 10 }),
      client.refunds.waitForCompletion(repeat, { interval: 10 }),
    ]);
    expect(fromAccepted.status).toBe('completed');
    expect(fromExisting.status).toBe('completed');
    expect(await client.refunds.list(trx)).toHaveLength(1);
  });

  it('resolves requestAndWait from a refund that was already active', async () => {
    const { mock, client } = await mockApi();
    const trx = mock.transactions.withActiveRefund;
    await expect(client.refunds.requestAndWait(trx, {}, { interval: 10 })).resolves.toMatchObject({
      status: 'completed',
      transaction_hash: trx,
    });
    expect(await client.refunds.list(trx)).toHaveLength(1);
  });

  it("waits on a refund itself: the existing result's refund, or one from refunds.list", async () => {
    const { mock, client } = await mockApi();
    const trx = mock.transactions.withActiveRefund;
    const existing = await client.refunds.request(trx);
    if (existing.kind !== 'existing') throw new Error('expected the active refund');

    const fromRefund = await client.refunds.waitForCompletion(existing.refund, { interval: 10 });
    const [listed] = await client.refunds.list(trx);

    expect(fromRefund).toMatchObject({ status: 'completed', transaction_hash: trx });
    await expect(
      client.refunds.waitForCompletion(listed!, { interval: 10 }),
    ).resolves.toMatchObject({ status: 'completed' });
  });

  it('waits from a bare transaction hash', async () => {
    const { mock, client } = await mockApi();
    const trx = mock.transactions.refundable[2]!;
    await client.refunds.request(trx);
    await expect(client.refunds.waitForCompletion(trx, { interval: 10 })).resolves.toMatchObject({
      status: 'completed',
    });
  });

  it('retries a transient failure of a poll without counting it as a status', async () => {
    const { mock, client } = await mockApi();
    const trx = mock.transactions.refundable[3]!;
    const result = await client.refunds.request(trx);
    mock.failNext({
      status: 503,
      times: 1,
      retryAfter: 0,
      path: `/financial/refund/${trx}/status`,
    });
    const seen: Array<string | undefined> = [];
    const final = await client.refunds.waitForCompletion(result, {
      interval: 10,
      onStatus: (status) => seen.push(status),
    });
    expect(final.status).toBe('completed');
    expect(seen).toEqual(['requested', 'success', 'completed']);
    // The 503, its replay (requested), then success, then completed.
    expect(requestsTo(mock, 'GET', `/financial/refund/${trx}/status`)).toHaveLength(4);
  });

  it('throws PollTimeoutError with the last status when a tiny timeout is spent', async () => {
    const { mock, client } = await mockApi({ refundPolls: 1_000 });
    const trx = mock.transactions.refundable[0]!;
    const started = Date.now();
    // Long enough for the first poll's answer on a busy machine (the last status is the point),
    // short beside the default.
    const error = await client.refunds
      .requestAndWait(trx, {}, { interval: 10, timeout: 400 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ lastStatus: 'requested' });
    expect((error as PollTimeoutError).waitedMs).toBeGreaterThanOrEqual(395);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('rejects within milliseconds when aborted mid-sleep, sending no further request', async () => {
    const { mock, client } = await mockApi({ refundPolls: 1_000 });
    const trx = mock.transactions.refundable[0]!;
    const result = await client.refunds.request(trx);
    const controller = new AbortController();
    // The first status is reported just before the wait's sleep starts.
    let polled = false;
    const waiting = client.refunds
      .waitForCompletion(result, {
        interval: 60_000,
        signal: controller.signal,
        onStatus: () => {
          polled = true;
        },
      })
      .catch((e: unknown) => e);
    await waitFor(() => polled, 'the first poll to be answered');
    const abortedAt = Date.now();
    controller.abort(new Error('user gave up'));
    const error = await waiting;
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(APIUserAbortError);
    // Proving that nothing more is sent takes a window: a request already on its way would land
    // within it.
    await sleep(50);
    expect(requestsTo(mock, 'GET', `/financial/refund/${trx}/status`)).toHaveLength(1);
  });

  it('aborts a poll in flight', async () => {
    const { mock, client } = await mockApi();
    const trx = mock.transactions.refundable[0]!;
    await client.refunds.request(trx);
    mock.failNext({ delayMs: 10_000, path: `/financial/refund/${trx}/status` });
    const controller = new AbortController();
    const waiting = client.refunds
      .waitForCompletion(trx, { signal: controller.signal })
      .catch((e: unknown) => e);
    await waitFor(
      () => requestsTo(mock, 'GET', `/financial/refund/${trx}/status`).length === 1,
      'the poll to reach the service',
    );
    const abortedAt = Date.now();
    controller.abort();
    expect(await waiting).toBeInstanceOf(APIUserAbortError);
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
  });

  it('ends with OutcomeUnknownError when aborted while its refund request is out: the refund may exist', async () => {
    const { mock, client } = await mockApi();
    const trx = mock.transactions.refundable[0]!;
    mock.failNext({ delayMs: 10_000, method: 'POST', path: `/financial/refund/${trx}` });
    const controller = new AbortController();
    const waiting = client.refunds
      .requestAndWait(trx, {}, { signal: controller.signal })
      .catch((e: unknown) => e);
    await waitFor(
      () => requestsTo(mock, 'POST', `/financial/refund/${trx}`).length === 1,
      'the refund request to reach the service',
    );
    controller.abort('operator stop');
    const error = await waiting;
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(APIUserAbortError);
    expect(((error as OutcomeUnknownError).cause as APIUserAbortError).cause).toBe('operator stop');
    // Neither a read nor a poll after the abort.
    expect(mock.requests.filter((r) => r.path.startsWith('/financial/refund/'))).toHaveLength(1);
  });

  it('ends a poll in flight at the timeout with PollTimeoutError', async () => {
    const { mock, client } = await mockApi();
    const trx = mock.transactions.refundable[0]!;
    await client.refunds.request(trx);
    mock.failNext({ delayMs: 10_000, path: `/financial/refund/${trx}/status` });
    const error = await client.refunds
      .waitForCompletion(trx, { timeout: 80 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ lastStatus: undefined });
  });

  it.each([
    ['interval', { interval: 0 }],
    ['maxInterval', { maxInterval: -1 }],
    ['timeout', { timeout: Number.NaN }],
  ])(
    'refuses a %s out of range before requesting the refund, sending nothing',
    async (name, poll) => {
      const { mock, client } = await mockApi();
      const trx = mock.transactions.refundable[0]!;
      const error = await client.refunds.requestAndWait(trx, {}, poll).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.path).toEqual([name]);
      expect(mock.requests).toHaveLength(0);
      expect(await client.refunds.list(trx)).toHaveLength(0);
    },
  );

  it('rejects an existing refund without a transaction hash as invalid, sending nothing', async () => {
    const { mock, client } = await mockApi();
    const error = await client.refunds
      .waitForCompletion({ kind: 'existing', refund: { hash: 'rfd_1' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(mock.requests).toHaveLength(0);
  });
});

describe('the waits take a last RequestOptions, as every method does', () => {
  it('requestAndWait and waitForCompletion send its headers on the request and on every poll', async () => {
    const { mock, client } = await mockApi();
    const trx = mock.transactions.refundable[0]!;
    const headers = { 'X-Correlation-Id': 'batch-7' };

    const final = await client.refunds.requestAndWait(trx, {}, { interval: 10 }, { headers });
    const again = await client.refunds.waitForCompletion(trx, { interval: 10 }, { headers });

    expect(final.status).toBe('completed');
    expect(again.status).toBe('completed');
    const sent = mock.requests.filter((r) => r.path.startsWith(`/financial/refund/${trx}`));
    expect(sent.length).toBeGreaterThanOrEqual(4);
    expect(sent.map((r) => r.headers['x-correlation-id'])).toEqual(sent.map(() => 'batch-7'));
  });

  it('applies its maxRetries to each poll, and its signal aborts the wait', async () => {
    const { mock, client } = await mockApi();
    const trx = mock.transactions.refundable[1]!;
    const accepted = await client.refunds.request(trx);
    mock.failNext({ status: 503, path: `/financial/refund/${trx}/status` });

    await expect(
      client.refunds.waitForCompletion(accepted, { interval: 10 }, { maxRetries: 0 }),
    ).rejects.toMatchObject({ status: 503 });
    await expect(
      client.refunds.waitForCompletion(accepted, { interval: 10 }, { signal: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(APIUserAbortError);
    expect(requestsTo(mock, 'GET', `/financial/refund/${trx}/status`)).toHaveLength(1);
  });
});

describe('refund polling over a scripted server', () => {
  it('grows the interval between polls and stops at maxInterval', async () => {
    const server = await stub(
      sequence(
        ...Array.from(
          { length: 6 },
          () => (_r: unknown, res: Parameters<typeof json>[0]) =>
            json(res, 200, statusBody('requested')),
        ),
        (_r, res) => json(res, 200, statusBody('completed')),
      ),
    );
    await clientOf(server).refunds.waitForCompletion('tx_1', { interval: 100, maxInterval: 200 });
    const times = server.requests.map((r) => r.at);
    const gaps = times.slice(1).map((at, i) => at - (times[i] ?? 0));
    expect(gaps).toHaveLength(6);
    // Expected 100, 150, 200, 200, 200, 200 (×1.5, capped): each gap at least that. Without the cap
    // the gaps would be 100, 150, 225, 337, 506, 759, at least 2,077 ms in all; the capped 1,050 ms
    // stays below that with a second to spare for a loaded machine, where any one gap may stretch.
    [100, 150, 200, 200, 200, 200].forEach((expected, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(expected - 2);
    });
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeLessThan(2_000);
  });

  it('respects a Retry-After on a poll response', async () => {
    const server = await stub(
      sequence(
        (_r, res) => json(res, 200, statusBody('requested'), { 'retry-after': '1' }),
        (_r, res) => json(res, 200, statusBody('completed')),
      ),
    );
    await clientOf(server).refunds.waitForCompletion('tx_1', { interval: 10 });
    const [first, second] = server.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('waits out a 429 whose Retry-After is longer than a poll may wait, instead of ending', async () => {
    const server = await stub(
      sequence(
        (_r, res) => json(res, 200, statusBody('requested')),
        (_r, res) => json(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '1' }),
        (_r, res) => json(res, 200, statusBody('completed')),
      ),
    );
    const seen: string[] = [];
    // Each poll may take 300 ms: the service's 1 s is longer than the transport waits within it.
    const final = await clientOf(server).refunds.waitForCompletion(
      'tx_1',
      { interval: 10, onStatus: (status) => seen.push(status) },
      { totalTimeout: 300 },
    );
    expect(final.status).toBe('completed');
    expect(seen).toEqual(['requested', 'completed']);
    const [, limited, last] = server.requests;
    expect((last?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('waits out a 503 whose Retry-After is longer than a poll may wait, as the service asked', async () => {
    const server = await stub(
      sequence(
        (_r, res) => json(res, 503, { message: 'Down for maintenance.' }, { 'retry-after': '1' }),
        (_r, res) => json(res, 200, statusBody('completed')),
      ),
    );
    const final = await clientOf(server).refunds.waitForCompletion(
      'tx_1',
      { interval: 10 },
      { totalTimeout: 300 },
    );
    expect(final.status).toBe('completed');
    const [unavailable, last] = server.requests;
    expect((last?.at ?? 0) - (unavailable?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('ends with the error of a poll failure that asks for no wait: a 404', async () => {
    const server = await stub((_r, res) => json(res, 404, { message: 'Not Found.' }));
    const error = await clientOf(server)
      .refunds.waitForCompletion('tx_1', { interval: 10 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404 });
    expect(server.requests).toHaveLength(1);
  });

  it('waits on an existing refund in success: success is not final', async () => {
    const server = await stub(
      sequence(
        (_r, res) =>
          json(res, 200, {
            status: 'success',
            message: 'An active refund already exists.',
            data: { hash: 'rfd_1', transaction_hash: 'tx_1', status: 'success' },
          }),
        (_r, res) => json(res, 200, statusBody('success')),
        (_r, res) => json(res, 200, statusBody('completed')),
      ),
    );
    const final = await clientOf(server).refunds.requestAndWait('tx_1', {}, { interval: 10 });
    expect(final.status).toBe('completed');
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /financial/refund/tx_1',
      'GET /financial/refund/tx_1/status',
      'GET /financial/refund/tx_1/status',
    ]);
  });

  it('follows the Location of the 202 as the status URL', async () => {
    const server = await stub((request, res) => {
      if (request.method === 'POST') {
        json(res, 202, statusBody('processing'), { location: '/api/v1/refund-status/abc' });
      } else {
        json(res, 200, statusBody('completed'));
      }
    });
    await clientOf(server).refunds.requestAndWait('tx_1');
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /financial/refund/tx_1',
      'GET /refund-status/abc',
    ]);
    expect(server.requests[1]?.headers['x-api-client-token']).toBe('tok-async');
  });

  it('sends no credentials to a status URL on another origin', async () => {
    const elsewhere = await stub((_r, res) => json(res, 200, statusBody('completed')));
    const api = await stub((_r, res) =>
      json(res, 202, statusBody('processing'), {
        location: `${elsewhere.origin}/refunds/tx_1/status`,
      }),
    );
    const seller = clientOf(api).forUser('seller-public-token');
    await expect(seller.refunds.requestAndWait('tx_1')).resolves.toMatchObject({
      status: 'completed',
    });
    expect(api.requests[0]?.headers['x-api-client-token']).toBe('tok-async');
    expect(elsewhere.requests).toHaveLength(1);
    const headers = elsewhere.requests[0]?.headers ?? {};
    expect(headers['x-api-client-token']).toBeUndefined();
    expect(headers.authorization).toBeUndefined();
  });
});
