/**
 * The kit's `assumptions` switches, seen on the wire: each answers "the other way" where the spec
 * shows no shape, and a malformed one is refused when the kit is created.
 */
import { describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing';
import { call } from './helpers';

describe("the kit's assumptions switches", () => {
  it('logs in at another path, with other field names, answering the token at a dot path', async () => {
    const mock = createMockPartnerApi({
      assumptions: {
        login: {
          path: '/oauth/token',
          body: { clientId: 'id', clientSecret: 'secret' },
          tokenField: 'auth.token',
        },
      },
    });
    const { clientId, clientSecret } = mock.credentials;
    const ok = await call(mock, 'POST', '/oauth/token', { id: clientId, secret: clientSecret });
    expect(ok.status).toBe(200);
    expect(ok.body.auth.token).toMatch(/^ct_/);
    const named = await call(mock, 'POST', '/oauth/token', {
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(named.body.errors).toEqual({
      id: ['The id field is required.'],
      secret: ['The secret field is required.'],
    });
    expect((await call(mock, 'POST', '/auth', { client_id: clientId })).status).toBe(404);
    expect(mock.stats.logins).toBe(2);
  });

  it('names refund statuses its own way, at its own status path, with a Location there', async () => {
    const mock = createMockPartnerApi({
      refundPolls: 0,
      assumptions: {
        refundStatus: {
          path: '/refunds/{hash}',
          active: ['pending', 'processing'],
          terminal: ['done', 'rejected'],
        },
        reconciliation: { timeZone: 'UTC' },
      },
    });
    const trx = mock.transactions.refundable[0]!;
    const accepted = await call(mock, 'POST', `/financial/refund/${trx}`, {});
    expect(accepted.headers.get('location')).toBe(`${mock.baseUrl}/refunds/${trx}`);
    const again = await call(mock, 'POST', `/financial/refund/${trx}`, {});
    expect(again).toMatchObject({ status: 200, body: { data: { status: 'pending' } } });
    const seen = [];
    for (let i = 0; i < 2; i++)
      seen.push((await call(mock, 'GET', `/refunds/${trx}`)).body.data.status);
    expect(seen).toEqual(['processing', 'done']);
    const createdAt = again.body.data.created_at as string;
    const utc = new Date().toISOString();
    expect(createdAt.slice(0, 10)).toBe(
      `${utc.slice(8, 10)}/${utc.slice(5, 7)}/${utc.slice(0, 4)}`,
    );
  });

  it('reads the anticipation scenario under another field, and strings untrimmed', async () => {
    const mock = createMockPartnerApi({
      assumptions: { anticipationConfirmation: { field: 'type' }, strings: { trim: false } },
    });
    const hash = mock.anticipations.confirmable[0]!;
    const missing = await call(mock, 'POST', `/financial/anticipation/confirm/${hash}`, {
      scenario: 'above',
    });
    expect(missing.body.errors).toEqual({ type: ['The type field is required.'] });
    const padded = await call(mock, 'POST', `/financial/anticipation/confirm/${hash}`, {
      type: ' above',
    });
    expect(padded.status).toBe(422);
    expect(
      (await call(mock, 'POST', `/financial/anticipation/confirm/${hash}`, { type: 'above' }))
        .status,
    ).toBe(200);
  });

  it('refuses a status path without {hash} when the kit is created', () => {
    expect(() =>
      createMockPartnerApi({ assumptions: { exportStatus: { path: '/exports/status' } } }),
    ).toThrow(/exportStatus\.path.*\{hash\}/);
    expect(() => createMockPartnerApi({ assumptions: { login: { path: 'auth' } } })).toThrow(
      TypeError,
    );
  });
});
