/**
 * The kit's `assumptions` seed option "sets both alike" with the client's, as its guide says: one
 * object, typed as the client's `Assumptions`, configures a client and the kit, and the kit
 * answers on the wire what that object names. A switch the kit cannot follow (a typo, a wrong
 * type, one status where two are needed, a zone that does not exist) is refused when the kit is
 * created, naming it, instead of showing up later as a malformed answer.
 */
import { type Assumptions, ExportFailedError } from 'partner-sdk';
import { createMockPartnerApi, type MockPartnerApiSeed } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { kitClients } from '../helpers/kit-clients';

const FAST = { interval: 1, maxInterval: 1, timeout: 5_000 };

/** An envelope as the kit sends it, read for its `data.status`. */
type WireBody = { data: { status: unknown } };

describe('one assumptions object for the client and the kit', () => {
  it("configures both, the kit answering on the wire what the client's option names", async () => {
    const assumptions: Assumptions = {
      refundStatus: {
        path: '/financial/refund/{hash}/state',
        active: ['pending', 'processing'],
        terminal: ['done', 'rejected'],
      },
      exportStatus: { failed: ['canceled', 'expired'] },
      reconciliation: { marginMs: 60_000, maxClockSkewMs: 60_000, timeZone: 'UTC' },
    };
    const mock = createMockPartnerApi({ refundPolls: 0, assumptions });
    const { seller } = kitClients(mock, { maxRetries: 0, assumptions });
    const trx = mock.transactions.refundable[0]!;
    expect((await seller.refunds.requestAndWait(trx, {}, FAST)).status).toBe('done');

    const exported = await seller.statements.export({ format: 'csv' });
    mock.exportOutcome(exported.hash, 'failed', { polls: 0 });
    // Plain fetch: the kit sends the first failed status, a string, as the service would.
    const wire = await mock.fetch(
      `${mock.baseUrl}/financial/account-statement/export-report/${exported.hash}`,
      {
        headers: {
          'X-Api-Client-Token': mock.credentials.clientToken,
          Authorization: `Bearer ${mock.sellers.person.publicToken}`,
        },
      },
    );
    expect(((await wire.json()) as WireBody).data.status).toBe('canceled');
    const error = await seller.statements.waitForExport(exported, FAST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportFailedError);
  });

  it('shows a single active status for both active steps of a refund', async () => {
    const mock = createMockPartnerApi({
      refundPolls: 0,
      assumptions: { refundStatus: { active: ['pending'] } },
    });
    const headers = {
      'X-Api-Client-Token': mock.credentials.clientToken,
      Authorization: `Bearer ${mock.sellers.person.publicToken}`,
    };
    const trx = mock.transactions.refundable[0]!;
    const url = `${mock.baseUrl}/financial/refund/${trx}`;
    expect((await mock.fetch(url, { method: 'POST', headers })).status).toBe(202);
    const statuses: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const answer = await mock.fetch(`${url}/status`, { headers });
      statuses.push(((await answer.json()) as WireBody).data.status);
    }
    expect(statuses).toEqual(['pending', 'completed']);
  });
});

describe('a switch the kit cannot follow is refused when the kit is created, naming it', () => {
  it.each<[string, unknown, RegExp]>([
    [
      'a misspelt key',
      { refundStatus: { termnal: ['a', 'b'] } },
      /assumptions\.refundStatus\.termnal/,
    ],
    ['an unknown group', { refund: {} }, /assumptions\.refund\b/],
    ['one final status', { refundStatus: { terminal: ['done'] } }, /refundStatus\.terminal/],
    ['no active status', { refundStatus: { active: [] } }, /refundStatus\.active/],
    ['an empty failed status list', { exportStatus: { failed: [] } }, /exportStatus\.failed/],
    ['a zone that does not exist', { reconciliation: { timeZone: 'Mars/Base' } }, /timeZone/],
    ['a margin that is not a number', { reconciliation: { marginMs: '10s' } }, /marginMs/],
    ['trim given as text', { strings: { trim: 'yes' } }, /strings\.trim/],
    ['an unknown blank reading', { strings: { blankAs: 'null' } }, /strings\.blankAs/],
    ['an empty token field', { login: { tokenField: '' } }, /login\.tokenField/],
    ['a field name of an empty segment', { anticipationConfirmation: { field: 'a..b' } }, /field/],
    ['__proto__ as a group', JSON.parse('{"__proto__": {"path": "/x"}}'), /__proto__/],
    ['a group that is not an object', { login: '/auth' }, /assumptions\.login/],
  ])('%s', (_, assumptions, named) => {
    const seed = { assumptions } as MockPartnerApiSeed;
    expect(() => createMockPartnerApi(seed)).toThrow(TypeError);
    expect(() => createMockPartnerApi(seed)).toThrow(named);
  });

  it.each<[string, unknown, RegExp]>([
    ['a misspelt rule', { birthBeforToday: true }, /assumedRules\.birthBeforToday/],
    ['a rule given as text', { avatarIsImage: 'true' }, /assumedRules\.avatarIsImage/],
  ])('assumedRules: %s', (_, assumedRules, named) => {
    const seed = { assumedRules } as MockPartnerApiSeed;
    expect(() => createMockPartnerApi(seed)).toThrow(named);
  });
});
