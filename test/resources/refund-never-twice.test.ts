/**
 * A refund request replayed after a lost answer must never create a second
 * refund. The lost attempt's refund completes before the replay, so a blind replay would make
 * another (spec §3: a repeat answers the refund only while it is active).
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  InternalServerError,
  OutcomeUnknownError,
  PartnerClient,
  RequestValidationError,
} from '../../src/index';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing/index';
import { sellerHeaders } from '../helpers/kit-clients';
import { type LossyProxy, type ProxyVerdict, startLossyProxy } from '../helpers/lossy-proxy';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

interface Setup {
  mock: MockPartnerApi;
  proxy: LossyProxy;
  transaction: string;
  seller: ReturnType<PartnerClient['forUser']>;
  /** Refunds the service holds for the transaction, read straight from it. */
  refunds(): Promise<Array<{ status: string; amount: number }>>;
}

/**
 * A 5000-cent transaction behind a proxy that loses the answer of the first refund request (or
 * treats the first ones as `loss` lists, in order).
 */
async function setup(
  loss: ProxyVerdict | ProxyVerdict[],
  options: {
    failReads?: boolean;
    completeMeanwhile?: boolean;
    /** Runs once the service has acted on a request whose answer is then lost. */
    onLost?: () => void;
    /** Runs as a read of the refunds reaches the proxy, before it is relayed. */
    onRead?: () => void;
    client?: { logger?: (message: string) => void };
  } = {},
): Promise<Setup> {
  const mock = createMockPartnerApi();
  const server = await mock.listen();
  closers.push(() => server.close());
  const transaction = mock.addTransaction(5000);
  mock.refundOutcome(transaction, 'completed', { polls: 0 });
  const headers = sellerHeaders(mock);
  const losses = Array.isArray(loss) ? [...loss] : [loss];
  const proxy = await startLossyProxy(
    server.url,
    (method, path) => {
      if (method === 'POST' && path.startsWith('/financial/refund/') && losses.length > 0) {
        return losses.shift()!;
      }
      if (method === 'GET' && options.failReads) return 'refuse-before';
      if (method === 'GET' && path === `/financial/refund/${transaction}`) options.onRead?.();
      return 'relay';
    },
    async () => {
      // While the answer is lost, the refund it created is processed to the end
      // (requested → success → completed: two polls).
      if (options.completeMeanwhile !== false) {
        for (let poll = 0; poll < 2; poll++) {
          const status = `${server.url}/financial/refund/${transaction}/status`;
          await (await fetch(status, { headers })).arrayBuffer();
        }
      }
      options.onLost?.();
    },
  );
  closers.push(() => proxy.close());
  const client = new PartnerClient({
    baseUrl: proxy.baseUrl,
    clientToken: mock.credentials.clientToken,
    maxRetries: 2,
    ...(options.client?.logger
      ? { logLevel: 'warn' as const, logger: warnings(options.client.logger) }
      : { logLevel: 'off' as const }),
  });
  return {
    mock,
    proxy,
    transaction,
    seller: client.forUser(mock.sellers.person.publicToken),
    async refunds() {
      const response = await fetch(`${server.url}/financial/refund/${transaction}`, { headers });
      return ((await response.json()) as { data: Array<{ status: string; amount: number }> }).data;
    },
  };
}

/** A logger that hands each warning to `onWarning` and drops the rest. */
function warnings(onWarning: (message: string) => void) {
  const ignore = () => {};
  return { debug: ignore, info: ignore, warn: onWarning, error: ignore };
}

describe('a refund request whose answer is lost', () => {
  it('after a reset, returns the refund the lost attempt created instead of making a second', async () => {
    const { seller, transaction, refunds, proxy } = await setup('reset-after');
    const result = await seller.refunds.request(transaction);
    expect(await refunds()).toEqual([
      expect.objectContaining({ status: 'completed', amount: 5000 }),
    ]);
    expect(result).toMatchObject({
      kind: 'existing',
      recovered: true,
      refund: { status: 'completed', amount: 5000 },
    });
    expect(proxy.seen.filter((line) => line.startsWith('POST'))).toHaveLength(1);
  });

  it('after an answer cut off mid-body, returns the refund the lost attempt created', async () => {
    const { seller, transaction, refunds, proxy } = await setup('cut-body-after');
    const result = await seller.refunds.request(transaction);
    expect(await refunds()).toEqual([
      expect.objectContaining({ status: 'completed', amount: 5000 }),
    ]);
    expect(result).toMatchObject({ kind: 'existing', recovered: true });
    expect(proxy.seen.filter((line) => line.startsWith('POST'))).toHaveLength(1);
  });

  it('after a 502 from a gateway, returns the refund the lost attempt created', async () => {
    const { seller, transaction, refunds } = await setup('bad-gateway-after');
    const result = await seller.refunds.request(transaction);
    expect(await refunds()).toHaveLength(1);
    expect(result).toMatchObject({ kind: 'existing', recovered: true });
  });

  it('replays when the lost attempt created nothing, making exactly one refund', async () => {
    const { seller, transaction, refunds, proxy } = await setup('refuse-before');
    // A 503 before the service: nothing was created, so the reconciliation finds none and replays.
    const result = await seller.refunds.request(transaction);
    expect(result.kind).toBe('accepted');
    expect(await refunds()).toHaveLength(1);
    expect(proxy.seen).toEqual([
      `POST /financial/refund/${transaction}`,
      `GET /financial/refund/${transaction}`,
      `POST /financial/refund/${transaction}`,
    ]);
  });

  it('never replays blindly: when reading the refunds fails too, says the refund may exist', async () => {
    const { seller, transaction, refunds, proxy } = await setup('reset-after', { failReads: true });
    const started = Date.now();
    const error = await seller.refunds.request(transaction).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).message).toMatch(/refund may have been created/);
    expect((error as OutcomeUnknownError).since.getTime()).toBeLessThanOrEqual(Date.now());
    expect((error as OutcomeUnknownError).since.getTime()).toBeGreaterThanOrEqual(started - 1);
    expect(proxy.seen.filter((line) => line.startsWith('POST'))).toHaveLength(1);
    expect(await refunds()).toHaveLength(1);
  });

  it('with its retries used up, still reads before giving up, and returns the refund the last attempt created', async () => {
    // The first attempt is refused before the service (a 503 from the gateway): its read finds
    // nothing, so it is replayed; the replay's answer is lost after the refund was made.
    const { seller, transaction, refunds, proxy } = await setup(['refuse-before', 'reset-after']);
    const result = await seller.refunds.request(transaction, {}, { maxRetries: 1 });
    expect(result).toMatchObject({ kind: 'existing', recovered: true, refund: { amount: 5000 } });
    expect(await refunds()).toHaveLength(1);
    expect(proxy.seen).toEqual([
      `POST /financial/refund/${transaction}`,
      `GET /financial/refund/${transaction}`,
      `POST /financial/refund/${transaction}`,
      `GET /financial/refund/${transaction}`,
    ]);
  });

  it('with its retries used up and the read failing too, says the refund may exist', async () => {
    const { seller, transaction, refunds, proxy } = await setup(['refuse-before', 'reset-after'], {
      failReads: true,
    });
    const error = await seller.refunds
      .request(transaction, {}, { maxRetries: 1 })
      .catch((e: unknown) => e);
    // The first read fails too, so the call ends there: never a blind replay.
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(proxy.seen.filter((line) => line.startsWith('POST'))).toHaveLength(1);
    expect(await refunds()).toHaveLength(0);
  });

  it("with no retry left, throws the lost attempt's error as it is: the refund may exist, and findCreatedSince finds it", async () => {
    const { seller, transaction, refunds, proxy } = await setup('bad-gateway-after');
    const since = new Date();
    const error = await seller.refunds
      .request(transaction, {}, { maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(proxy.seen).toEqual([`POST /financial/refund/${transaction}`]);
    expect(await refunds()).toHaveLength(1);
    await expect(seller.refunds.findCreatedSince(transaction, since)).resolves.toMatchObject({
      status: 'completed',
      amount: 5000,
    });
  });

  it("with its retries used up, the caller's abort while the last answer is lost ends the call with OutcomeUnknownError, and no read after it", async () => {
    const controller = new AbortController();
    // The replay's refund is made, then the caller aborts while its answer is on its way.
    const { seller, transaction, refunds, proxy } = await setup(['refuse-before', 'reset-after'], {
      onLost: () => controller.abort(new Error('operator stop')),
    });
    const error = await seller.refunds
      .request(transaction, {}, { maxRetries: 1, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    const unknown = error as OutcomeUnknownError;
    expect(unknown.message).toMatch(/refund may have been created/);
    expect(unknown.message).toMatch(/aborted by the caller/);
    expect(unknown.cause).toBeInstanceOf(APIUserAbortError);
    expect(unknown.attemptError).toBeInstanceOf(APIUserAbortError);
    expect((unknown.cause as APIUserAbortError).cause).toEqual(new Error('operator stop'));
    expect(proxy.seen).toEqual([
      `POST /financial/refund/${transaction}`,
      `GET /financial/refund/${transaction}`,
      `POST /financial/refund/${transaction}`,
    ]);
    expect(await refunds()).toHaveLength(1);
    await expect(
      seller.refunds.findCreatedSince(transaction, unknown.since),
    ).resolves.toMatchObject({ amount: 5000 });
  });

  it("with maxRetries: 0, the caller's abort once the request was out ends the call with OutcomeUnknownError, no read sent", async () => {
    const controller = new AbortController();
    const { seller, transaction, refunds, proxy } = await setup('reset-after', {
      onLost: () => controller.abort('operator stop'),
    });
    const error = await seller.refunds
      .request(transaction, {}, { maxRetries: 0, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    const unknown = error as OutcomeUnknownError;
    expect(unknown.cause).toBeInstanceOf(APIUserAbortError);
    expect((unknown.cause as APIUserAbortError).cause).toBe('operator stop');
    expect(proxy.seen).toEqual([`POST /financial/refund/${transaction}`]);
    expect(await refunds()).toHaveLength(1);
  });

  it("the caller's abort during the read after a lost answer ends the call with OutcomeUnknownError, never sent again", async () => {
    const controller = new AbortController();
    const { seller, transaction, refunds, proxy } = await setup('reset-after', {
      onRead: () => controller.abort(),
    });
    const error = await seller.refunds
      .request(transaction, {}, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(APIUserAbortError);
    // The lost attempt's own failure is kept as it was: a reset, not the abort that came after.
    expect((error as OutcomeUnknownError).attemptError).not.toBeInstanceOf(APIUserAbortError);
    expect(proxy.seen).toEqual([
      `POST /financial/refund/${transaction}`,
      `GET /financial/refund/${transaction}`,
    ]);
    expect(await refunds()).toHaveLength(1);
  });

  it("the caller's abort in the wait before the read ends the call with OutcomeUnknownError, the read never sent", async () => {
    const controller = new AbortController();
    const { seller, transaction, proxy } = await setup('reset-after', {
      // Logged as the wait before the read starts.
      client: { logger: (message) => message.includes('retrying') && controller.abort() },
    });
    const error = await seller.refunds
      .request(transaction, {}, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(APIUserAbortError);
    expect(proxy.seen).toEqual([`POST /financial/refund/${transaction}`]);
  });

  it('a signal aborted before the call is APIUserAbortError: nothing was sent', async () => {
    const { seller, transaction, refunds, proxy } = await setup('relay');
    const error = await seller.refunds
      .request(transaction, {}, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(proxy.seen).toEqual([]);
    expect(await refunds()).toEqual([]);
  });

  it('does no extra request when the answer arrives', async () => {
    const { seller, refunds, proxy, mock } = await setup('relay');
    const other = mock.addTransaction(5000);
    expect((await seller.refunds.request(other)).kind).toBe('accepted');
    expect(proxy.seen).toEqual([`POST /financial/refund/${other}`]);
    expect(await refunds()).toEqual([]);
  });
});

/** A service stub whose clock runs `skewMs` off this machine's, holding the given refunds. */
async function skewedService(
  skewMs: number,
  refunds: (serviceNow: Date) => unknown[],
): Promise<{ baseUrl: string; posts: number }> {
  const state = { baseUrl: '', posts: 0 };
  const server: Server = createServer((req, res) => {
    const serviceNow = new Date(Date.now() + skewMs);
    const date = serviceNow.toUTCString();
    if (req.method === 'POST') {
      state.posts++;
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', date });
    res.end(JSON.stringify({ status: 'success', message: 'ok', data: refunds(serviceNow) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  return state;
}

/** `DD/MM/YYYY HH:mm:ss` in São Paulo time (UTC-3), as the service writes `created_at`. */
function saoPaulo(instant: Date): string {
  const d = new Date(instant.getTime() - 3 * 3_600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

describe('refunds.findCreatedSince', () => {
  const refund = (status: string, createdAt: string) => ({
    hash: `rfd_${status}`,
    transaction_hash: 'tx_1',
    status,
    amount: 5000,
    created_at: createdAt,
  });

  it("judges the window in the service's clock, read from its Date header", async () => {
    // The service runs two hours behind this machine; its refund was created just now in its clock.
    const service = await skewedService(-2 * 3_600_000, (now) => [
      refund('completed', saoPaulo(now)),
    ]);
    const client = new PartnerClient({ baseUrl: service.baseUrl, clientToken: 'client-token-1' });
    const found = await client.refunds.findCreatedSince('tx_1', new Date(Date.now() - 1_000));
    expect(found?.status).toBe('completed');
  });

  it('ignores a finished refund from before the call, so a request is then safe', async () => {
    const service = await skewedService(5 * 60_000, (now) => [
      refund('failed', saoPaulo(new Date(now.getTime() - 60 * 60_000))),
    ]);
    const client = new PartnerClient({ baseUrl: service.baseUrl, clientToken: 'client-token-1' });
    expect(await client.refunds.findCreatedSince('tx_1', new Date())).toBeUndefined();
  });

  it('returns an active refund whatever its age', async () => {
    const service = await skewedService(0, () => [
      refund('completed', '01/01/2020 10:00:00'),
      refund('requested', '01/01/2021 10:00:00'),
    ]);
    const client = new PartnerClient({ baseUrl: service.baseUrl, clientToken: 'client-token-1' });
    expect((await client.refunds.findCreatedSince('tx_1', new Date()))?.status).toBe('requested');
  });

  it('refuses an invalid since before sending anything', async () => {
    const service = await skewedService(0, () => []);
    const client = new PartnerClient({ baseUrl: service.baseUrl, clientToken: 'client-token-1' });
    await expect(
      client.refunds.findCreatedSince('tx_1', new Date(Number.NaN)),
    ).rejects.toBeInstanceOf(RequestValidationError);
  });

  it('lets refunds.request recover through a skewed clock and send no second POST', async () => {
    const service = await skewedService(-90 * 60_000, (now) => [
      refund('completed', saoPaulo(now)),
    ]);
    const client = new PartnerClient({
      baseUrl: service.baseUrl,
      clientToken: 'client-token-1',
      logLevel: 'off',
    });
    const result = await client.refunds.request('tx_1');
    expect(result).toMatchObject({ kind: 'existing', recovered: true });
    expect(service.posts).toBe(1);
  });
});
