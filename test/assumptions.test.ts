import { describe, expect, it } from 'vitest';
import { type Assumptions, DEFAULT_ASSUMPTIONS, PartnerClient, PartnerError } from '../src/index';
import { createMockPartnerApi } from '../src/testing';

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
      reconciliation: { marginMs: 0, timeZone: 'UTC' },
      exportStatus: { path: '/exports/{hash}/status', failed: ['canceled'] },
      anticipationConfirmation: { field: 'type' },
      strings: { trim: false, blankAs: 'empty' },
    };
    expect(() => clientWith(all)).not.toThrow();
    expect(() => clientWith(undefined)).not.toThrow();
    expect(() => clientWith({})).not.toThrow();
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
      reconciliation: { marginMs: 10_000, timeZone: 'America/Sao_Paulo' },
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
