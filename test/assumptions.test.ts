import { describe, expect, it } from 'vitest';
import {
  type Assumptions,
  DEFAULT_ASSUMPTIONS,
  ExportFailedError,
  PartnerClient,
  PartnerError,
  RequestValidationError,
  UnprocessableEntityError,
} from '../src/index';
import { createMockPartnerApi } from '../src/testing';
import { paulistaAddress as ADDRESS } from './helpers/addresses';

const BASE = 'https://partner.example.com/api/v1';

function clientWith(assumptions: unknown): PartnerClient {
  return new PartnerClient({
    baseUrl: BASE,
    clientToken: 'tok-123456',
    logLevel: 'off',
    assumptions: assumptions as Assumptions,
  });
}

describe('the assumptions option, checked at construction', () => {
  it.each([
    [{ login: { path: 'auth' } }, /assumptions\.login\.path` must be a path starting with "\/"/],
    [
      { login: { body: { clientId: 'client id' } } },
      /assumptions\.login\.body\.clientId` must be a field name/,
    ],
    [{ login: { tokenField: '' } }, /assumptions\.login\.tokenField` must be a field name/],
    [
      { refundStatus: { path: '/financial/refund/status' } },
      /assumptions\.refundStatus\.path` must be a path .* "\{hash\}" once/,
    ],
    [
      { refundStatus: { terminal: [] } },
      /assumptions\.refundStatus\.terminal` must be a non-empty array/,
    ],
    [
      { refundStatus: { active: ['requested', ''] } },
      /assumptions\.refundStatus\.active` must be a non-empty array of non-empty strings/,
    ],
    [
      { reconciliation: { marginMs: -1 } },
      /assumptions\.reconciliation\.marginMs` must be a whole number/,
    ],
    [
      { reconciliation: { marginMs: 3_600_001 } },
      /assumptions\.reconciliation\.marginMs` must be a whole number of milliseconds from 0 to 3600000/,
    ],
    [
      { reconciliation: { marginMs: 1.5 } },
      /assumptions\.reconciliation\.marginMs` must be a whole number/,
    ],
    [
      { reconciliation: { maxClockSkewMs: 86_400_001 } },
      /assumptions\.reconciliation\.maxClockSkewMs` must be a whole number of milliseconds from 0 to 86400000/,
    ],
    [
      { reconciliation: { maxClockSkewMs: -1 } },
      /assumptions\.reconciliation\.maxClockSkewMs` must be a whole number/,
    ],
    [
      { reconciliation: { timeZone: 'Mars/Olympus' } },
      /assumptions\.reconciliation\.timeZone` must be an IANA time zone/,
    ],
    [
      { exportStatus: { failed: 'failed' } },
      /assumptions\.exportStatus\.failed` must be a non-empty array/,
    ],
    [
      { anticipationConfirmation: { field: 'scenario type' } },
      /assumptions\.anticipationConfirmation\.field` must be a field name/,
    ],
    [{ strings: { trim: 'yes' } }, /assumptions\.strings\.trim` must be true or false/],
    [
      { strings: { blankAs: 'null' } },
      /assumptions\.strings\.blankAs` must be 'missing' or 'empty'/,
    ],
    [
      { refundStatuses: {} },
      /assumptions\.refundStatuses` is not an assumption \(known: login, refundStatus/,
    ],
    [{ login: { tokenFeld: 'token' } }, /assumptions\.login\.tokenFeld` is not an assumption/],
    [{ login: { toString: 'x' } }, /assumptions\.login\.toString` is not an assumption/],
    [{ login: 'auth' }, /assumptions\.login` must be an object/],
  ])('refuses %j with a PartnerError naming the field', (assumptions, message) => {
    expect(() => clientWith(assumptions)).toThrow(PartnerError);
    expect(() => clientWith(assumptions)).toThrow(message);
  });

  it('accepts every field set, and nothing at all', () => {
    const all: Assumptions = {
      login: {
        path: '/oauth/token',
        body: { clientId: 'id', clientSecret: 'secret' },
        tokenField: 'auth.token',
      },
      refundStatus: { path: '/refunds/{hash}', active: ['pending'], terminal: ['done'] },
      reconciliation: { marginMs: 0, maxClockSkewMs: 0, timeZone: 'UTC' },
      exportStatus: { path: '/exports/{hash}/status', failed: ['canceled'] },
      anticipationConfirmation: { field: 'type' },
      strings: { trim: false, blankAs: 'empty' },
    };
    expect(() => clientWith(all)).not.toThrow();
    expect(() => clientWith(undefined)).not.toThrow();
    expect(() => clientWith({})).not.toThrow();
  });

  it('accepts the documented bounds of the reconciliation, at both ends', () => {
    for (const reconciliation of [
      { marginMs: 0, maxClockSkewMs: 0 },
      { marginMs: 3_600_000, maxClockSkewMs: 86_400_000 },
    ]) {
      expect(() => clientWith({ reconciliation })).not.toThrow();
    }
  });

  it('keeps the defaults as the documented assumptions', () => {
    expect(DEFAULT_ASSUMPTIONS).toEqual({
      login: {
        path: '/auth',
        body: { clientId: 'client_id', clientSecret: 'client_secret' },
        tokenField: 'client_token',
      },
      refundStatus: {
        path: '/financial/refund/{hash}/status',
        active: ['requested', 'success'],
        terminal: ['completed', 'failed'],
      },
      reconciliation: { marginMs: 10_000, maxClockSkewMs: 900_000, timeZone: 'America/Sao_Paulo' },
      exportStatus: {
        path: '/financial/account-statement/export-report/{hash}',
        failed: ['failed', 'error'],
      },
      anticipationConfirmation: { field: 'scenario' },
      strings: { trim: true, blankAs: 'missing' },
    });
  });
});

describe('derived clients and the assumptions option', () => {
  it('forUser and withOptions inherit it, and a withOptions override merges over the parent', async () => {
    const mock = createMockPartnerApi();
    const root = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientToken: mock.credentials.clientToken,
      logLevel: 'off',
      maxRetries: 0,
      assumptions: { anticipationConfirmation: { field: 'kind' }, strings: { trim: false } },
    });
    const confirm = async (client: PartnerClient) => {
      const seller = client.forUser(mock.sellers.person.publicToken);
      await seller.anticipations.confirm('ant_unknown', { scenario: 'above' }).catch(() => {});
      return mock.requests.at(-1)?.body;
    };
    expect(await confirm(root)).toEqual({ kind: 'above' });
    const fast = root.withOptions({ timeout: 5_000 });
    expect(await confirm(fast)).toEqual({ kind: 'above' });
    const renamed = fast.withOptions({
      assumptions: { anticipationConfirmation: { field: 'type' } },
    });
    expect(await confirm(renamed)).toEqual({ type: 'above' });
    // The grandchild still has the root's `strings` beside its own field name.
    const grandchild = renamed.withOptions({ maxRetries: 1 });
    expect(await confirm(grandchild)).toEqual({ type: 'above' });
    const seller = grandchild.forUser(mock.sellers.person.publicToken);
    await seller.refunds.request(mock.transactions.refundable[0]!, { reason: '  padded  ' });
    expect(mock.requests.at(-1)?.body).toEqual({ reason: '  padded  ' });
  });

  it('refuses a bad override in withOptions, naming it', () => {
    const root = clientWith(undefined);
    expect(() => root.withOptions({ assumptions: { exportStatus: { path: '/x' } } })).toThrow(
      /assumptions\.exportStatus\.path/,
    );
  });
});

describe('the interface version', () => {
  it('names the spec version 1.0.2 in User-Agent', async () => {
    const mock = createMockPartnerApi();
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientToken: mock.credentials.clientToken,
      logLevel: 'off',
    });
    await client.products.retrieve(mock.products.course.hash);
    expect(mock.requests.at(-1)?.headers['user-agent']).toMatch(
      /^partner-sdk\/\d+\.\d+\.\d+ \(.+\) partner-api\/1\.0\.2$/,
    );
  });
});

/** A root client on `mock`, with `assumptions`; credentials by login unless a token is asked for. */
function clientOn(
  mock: ReturnType<typeof createMockPartnerApi>,
  assumptions?: Assumptions,
  login = false,
): PartnerClient {
  const { clientId, clientSecret, clientToken } = mock.credentials;
  return new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...(login ? { clientId, clientSecret } : { clientToken }),
    maxRetries: 0,
    logLevel: 'off',
    ...(assumptions && { assumptions }),
  });
}

const FAST = { interval: 1, maxInterval: 1, timeout: 5_000 };

describe('each assumption, changed through the option, against a kit configured the other way', () => {
  it('login: path, body field names and token field', async () => {
    const login = {
      path: '/oauth/token',
      body: { clientId: 'id', clientSecret: 'secret' },
      tokenField: 'auth.access_token',
    };
    const mock = createMockPartnerApi({ assumptions: { login } });
    const page = await clientOn(mock, { login }, true).products.list();
    expect(page.data.length).toBeGreaterThan(0);
    expect(mock.requests[0]).toMatchObject({ method: 'POST', path: '/oauth/token' });
    expect(Object.keys(mock.requests[0]!.body as object)).toEqual(['id', 'secret']);
    // The defaults do not reach this service.
    await expect(clientOn(mock, undefined, true).products.list()).rejects.toThrow();
  });

  it('refund status: its path and the active and terminal statuses', async () => {
    const refundStatus = {
      path: '/financial/refund/{hash}/state',
      active: ['pending', 'processing'],
      terminal: ['done', 'rejected'],
    } as const;
    const mock = createMockPartnerApi({ assumptions: { refundStatus } });
    const seller = clientOn(mock, { refundStatus }).forUser(mock.sellers.person.publicToken);
    const trx = mock.transactions.refundable[0]!;
    await seller.refunds.request(trx);
    // Active in the service's words: found as the refund in progress, however late `since` is.
    const active = await seller.refunds.findCreatedSince(trx, new Date(Date.now() + 3_600_000));
    expect(active?.status).toBe('pending');
    const final = await seller.refunds.waitForCompletion(trx, FAST);
    expect(final.status).toBe('done');
    expect(mock.requests.at(-1)?.path).toBe(`/financial/refund/${trx}/state`);

    const defaults = clientOn(mock).forUser(mock.sellers.person.publicToken);
    await expect(defaults.refunds.retrieveStatus(trx)).rejects.toThrow();
  });

  it("reconciliation: the zone of a refund's created_at", async () => {
    const mock = createMockPartnerApi({
      assumptions: { reconciliation: { timeZone: 'Pacific/Honolulu' } },
    });
    const trx = mock.transactions.refundable[1]!;
    mock.refundOutcome(trx, 'failed', { polls: 0 });
    const started = new Date();
    const seller = (assumptions?: Assumptions) =>
      clientOn(mock, assumptions).forUser(mock.sellers.person.publicToken);
    await seller().refunds.request(trx);
    await seller().refunds.retrieveStatus(trx); // now `failed`: no longer active
    const honolulu = seller({ reconciliation: { timeZone: 'Pacific/Honolulu' } });
    expect((await honolulu.refunds.findCreatedSince(trx, started))?.status).toBe('failed');
    // Read in São Paulo time, the same wall clock is seven hours earlier: not this call's.
    expect(await seller().refunds.findCreatedSince(trx, started)).toBeUndefined();
  });

  it('reconciliation: the margin, for a machine clock ahead of the service', async () => {
    const mock = createMockPartnerApi();
    const trx = mock.transactions.refundable[2]!;
    mock.refundOutcome(trx, 'failed', { polls: 0 });
    const seller = (assumptions?: Assumptions) =>
      clientOn(mock, assumptions).forUser(mock.sellers.person.publicToken);
    await seller().refunds.request(trx);
    await seller().refunds.retrieveStatus(trx);
    const aheadBy30s = new Date(Date.now() + 30_000);
    const wide = seller({ reconciliation: { marginMs: 60_000 } });
    expect((await wide.refunds.findCreatedSince(trx, aheadBy30s))?.status).toBe('failed');
    expect(await seller().refunds.findCreatedSince(trx, aheadBy30s)).toBeUndefined();
  });

  it('export status: its path and the failed status', async () => {
    const exportStatus = {
      path: '/financial/account-statement/export-report/{hash}/status',
      failed: 'canceled',
    };
    const mock = createMockPartnerApi({ assumptions: { exportStatus } });
    const option = { exportStatus: { path: exportStatus.path, failed: ['canceled'] } };
    const seller = clientOn(mock, option).forUser(mock.sellers.person.publicToken);
    const exported = await seller.statements.export({ format: 'csv' });
    mock.exportOutcome(exported.hash, 'failed', { polls: 0 });
    const error = await seller.statements.waitForExport(exported.hash, FAST).catch((e) => e);
    expect(error).toBeInstanceOf(ExportFailedError);
    expect((error as ExportFailedError).export.status).toBe('canceled');
    expect(mock.requests.at(-1)?.path).toBe(
      `/financial/account-statement/export-report/${exported.hash}/status`,
    );

    const defaults = clientOn(mock).forUser(mock.sellers.person.publicToken);
    await expect(defaults.statements.retrieve(exported.hash)).rejects.toThrow();
  });

  it("anticipation confirmation: the scenario's field name", async () => {
    const mock = createMockPartnerApi({
      assumptions: { anticipationConfirmation: { field: 'type' } },
    });
    const [first, second] = mock.anticipations.confirmable;
    const renamed = clientOn(mock, { anticipationConfirmation: { field: 'type' } });
    const confirmed = await renamed
      .forUser(mock.sellers.person.publicToken)
      .anticipations.confirm(first!, { scenario: 'above' });
    expect(confirmed.status).toBe('approved');
    expect(mock.requests.at(-1)?.body).toEqual({ type: 'above' });
    const defaults = clientOn(mock).forUser(mock.sellers.person.publicToken);
    await expect(
      defaults.anticipations.confirm(second!, { scenario: 'above' }),
    ).rejects.toBeInstanceOf(UnprocessableEntityError);
  });

  it('strings: a service that does not trim', async () => {
    const mock = createMockPartnerApi({ assumptions: { strings: { trim: false } } });
    const profile = { name: '  Jo ', address: ADDRESS, cpf: '529.982.247-25', birth: '1988-04-12' };
    const untrimmed = clientOn(mock, { strings: { trim: false } }).forUser(
      mock.sellers.person.publicToken,
    );
    const user = await untrimmed.users.update(profile);
    expect(user.name).toBe('  Jo ');
    // Trimmed, as by default, the name is too short: refused before sending.
    const defaults = clientOn(mock).forUser(mock.sellers.person.publicToken);
    await expect(defaults.users.update(profile)).rejects.toBeInstanceOf(RequestValidationError);
  });

  it('strings: a service that reads an empty string as a value', async () => {
    const mock = createMockPartnerApi({ assumptions: { strings: { blankAs: 'empty' } } });
    const seller = clientOn(mock, { strings: { blankAs: 'empty' } }).forUser(
      mock.sellers.person.publicToken,
    );
    const trx = mock.transactions.refundable[3]!;
    const result = await seller.refunds.request(trx, { observation: '   ' });
    expect(result.kind).toBe('accepted');
    expect(mock.requests.at(-1)?.body).toEqual({ observation: '' });
    expect((await seller.refunds.list(trx))[0]?.observation).toBe('');
  });
});

describe('the defaults, against the kit as it is', () => {
  it('logs in, waits for a refund and an export, confirms an anticipation and trims strings as before', async () => {
    const mock = createMockPartnerApi();
    const root = clientOn(mock, undefined, true);
    const seller = root.forUser(mock.sellers.person.publicToken);
    const trx = mock.transactions.refundable[0]!;
    expect((await seller.refunds.requestAndWait(trx, {}, FAST)).status).toBe('completed');
    expect(mock.requests[0]).toMatchObject({
      path: '/auth',
      body: { client_id: mock.credentials.clientId, client_secret: mock.credentials.clientSecret },
    });
    const exported = await seller.statements.export({ format: 'csv' });
    expect((await seller.statements.waitForExport(exported, FAST)).url).toMatch(/^https:/);
    const hash = mock.anticipations.confirmable[0]!;
    await seller.anticipations.confirm(hash, { scenario: 'below' });
    expect(mock.requests.at(-1)?.body).toEqual({ scenario: 'below' });
    const user = await seller.users.update({
      name: '  Maria Souza ',
      address: ADDRESS,
      cpf: '529.982.247-25',
      birth: '1988-04-12',
    });
    expect(user.name).toBe('Maria Souza');
  });
});
