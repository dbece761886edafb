import { describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing';
import { call, sellerHeaders } from './helpers';

const BR_DATE_TIME = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/;

describe('mock API refunds', () => {
  it('accepts a refund with 202 and an absolute Location, then moves requested → success → completed', async () => {
    const mock = createMockPartnerApi();
    const trx = mock.transactions.refundable[0]!;
    const res = await call(mock, 'POST', `/financial/refund/${trx}`, { reason: 'Arrependimento' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      status: 'processing',
      message: expect.any(String),
      data: { transaction_hash: trx },
    });
    const location = res.headers.get('location')!;
    expect(location).toBe(`${mock.baseUrl}/financial/refund/${trx}/status`);

    const statuses: string[] = [];
    for (let i = 0; i < 4; i++) {
      const poll = await mock.fetch(location, { headers: sellerHeaders(mock) });
      const body = (await poll.json()) as { status: string; data: Record<string, unknown> };
      expect(body.status).toBe('success');
      expect(body.data).toMatchObject({
        transaction_hash: trx,
        created_at: expect.stringMatching(BR_DATE_TIME),
      });
      statuses.push(body.data.status as string);
    }
    expect(statuses).toEqual(['requested', 'success', 'completed', 'completed']);
  });

  it('treats success as active: a new request answers 200 with that refund, creating none', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const trx = mock.addTransaction(5000);
    expect((await call(mock, 'POST', `/financial/refund/${trx}`)).status).toBe(202);
    const poll = await call(mock, 'GET', `/financial/refund/${trx}/status`);
    expect(poll.body.data.status).toBe('success');

    const again = await call(mock, 'POST', `/financial/refund/${trx}`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'success', data: { status: 'success' } });
    expect((await call(mock, 'GET', `/financial/refund/${trx}`)).body.data).toHaveLength(1);

    expect((await call(mock, 'GET', `/financial/refund/${trx}/status`)).body.data.status).toBe(
      'completed',
    );
    expect((await call(mock, 'POST', `/financial/refund/${trx}`)).status).toBe(202);
  });

  it('answers 200 with the existing refund while one is active, creating nothing', async () => {
    const mock = createMockPartnerApi();
    const trx = mock.transactions.withActiveRefund;
    const res = await call(mock, 'POST', `/financial/refund/${trx}`, {});
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(res.body).toMatchObject({
      status: 'success',
      data: { transaction_hash: trx, status: 'requested' },
    });
    const list = await call(mock, 'GET', `/financial/refund/${trx}`);
    expect(list.body.data).toHaveLength(1);
  });

  it('follows a scripted failure after the scripted number of polls', async () => {
    const mock = createMockPartnerApi();
    const trx = mock.addTransaction(4990);
    mock.refundOutcome(trx, 'failed', { polls: 2 });
    await call(mock, 'POST', `/financial/refund/${trx}`);
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      seen.push((await call(mock, 'GET', `/financial/refund/${trx}/status`)).body.data.status);
    }
    expect(seen).toEqual(['requested', 'requested', 'failed']);
    // Not active any more: a new request is accepted again.
    expect((await call(mock, 'POST', `/financial/refund/${trx}`)).status).toBe(202);
  });

  it('lists the refunds of a transaction', async () => {
    const mock = createMockPartnerApi();
    const res = await call(mock, 'GET', `/financial/refund/${mock.transactions.withPastRefund}`);
    expect(res.body).toMatchObject({ status: 'success', data: [{ status: 'completed' }] });
    expect((await call(mock, 'GET', '/financial/refund/trx_unknown')).status).toBe(404);
  });

  it('refuses a reason over 1000 characters with a 422', async () => {
    const mock = createMockPartnerApi();
    const trx = mock.transactions.refundable[1]!;
    const res = await call(mock, 'POST', `/financial/refund/${trx}`, { reason: 'x'.repeat(1001) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The reason must not be greater than 1000 characters.',
      errors: { reason: ['The reason must not be greater than 1000 characters.'] },
    });
  });
});

describe('mock API statement exports', () => {
  const params = { format: 'csv', filter: { betweenDates: '01/02/2025,28/02/2025' } };

  it('starts an export, answers 409 for the same parameters, then finishes with a download url', async () => {
    const mock = createMockPartnerApi();
    const started = await call(mock, 'POST', '/financial/account-statement/export-report', params);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      status: 'success',
      data: { status: 'processing', url: null },
    });
    const hash = started.body.data.hash as string;

    const again = await call(mock, 'POST', '/financial/account-statement/export-report', params);
    expect(again.status).toBe(409);
    expect(again.body.data).toEqual(started.body.data);
    const other = await call(mock, 'POST', '/financial/account-statement/export-report', {
      ...params,
      format: 'pdf',
    });
    expect(other.status).toBe(200);

    const poll1 = await call(mock, 'GET', `/financial/account-statement/export-report/${hash}`);
    expect(poll1.body.data).toMatchObject({ hash, status: 'processing', url: null });
    const poll2 = await call(mock, 'GET', `/financial/account-statement/export-report/${hash}`);
    expect(poll2.body.data).toMatchObject({ hash, status: 'completed', url: expect.any(String) });

    const file = await mock.fetch(poll2.body.data.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await file.text()).toContain('01/02/2025');
  });

  it('ends an export as failed when scripted so', async () => {
    const mock = createMockPartnerApi();
    const started = await call(mock, 'POST', '/financial/account-statement/export-report', params);
    mock.exportOutcome(started.body.data.hash, 'failed', { polls: 0 });
    const poll = await call(
      mock,
      'GET',
      `/financial/account-statement/export-report/${started.body.data.hash}`,
    );
    expect(poll.body.data).toMatchObject({ status: 'failed', url: null });
  });

  it('refuses a malformed date range with a 422', async () => {
    const mock = createMockPartnerApi();
    const res = await call(mock, 'POST', '/financial/account-statement/export-report', {
      format: 'csv',
      filter: { betweenDates: '2025-02-01' },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['filter.betweenDates']);
  });
});

describe('mock API anticipations and fee tiers', () => {
  it('confirms an anticipation, which then heads the history', async () => {
    const mock = createMockPartnerApi();
    const hash = mock.anticipations.confirmable[0]!;
    const res = await call(mock, 'POST', `/financial/anticipation/confirm/${hash}`, {
      scenario: 'above',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      amount: expect.any(Number),
      status: 'approved',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$/),
    });
    const list = await call(mock, 'GET', '/financial/anticipation');
    expect(list.body.data.anticipations[0]).toMatchObject({ hash, amount: res.body.amount });
  });

  it('refuses an unknown scenario with a 422', async () => {
    const mock = createMockPartnerApi();
    const hash = mock.anticipations.confirmable[1]!;
    const res = await call(mock, 'POST', `/financial/anticipation/confirm/${hash}`, {
      scenario: 'middle',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ scenario: ['The selected scenario is invalid.'] });
  });

  it('paginates the anticipation history in data.pagination, newest first', async () => {
    const mock = createMockPartnerApi();
    const page1 = await call(mock, 'GET', '/financial/anticipation');
    expect(page1.body.data.pagination).toEqual({
      current_page: 1,
      from: 1,
      per_page: 25,
      to: 25,
      total: 30,
      last_page: 2,
    });
    const dates = page1.body.data.anticipations.map((a: { created_at: string }) => a.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    const page2 = await call(mock, 'GET', '/financial/anticipation?page=2');
    expect(page2.body.data.anticipations).toHaveLength(5);
    expect((await call(mock, 'GET', '/financial/anticipation?per_page=101')).status).toBe(422);
  });

  it('reads the fee-tier history, newest first', async () => {
    const mock = createMockPartnerApi();
    const res = await call(mock, 'GET', '/users/fee-tiers/history');
    expect(res.body.status).toBe('success');
    expect(res.body.data[0]).toMatchObject({
      action: 'update',
      changed_by: { name: expect.any(String), email: expect.any(String) },
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    });
  });

  it('serves a finished export of any format at a URL that reaches it', async () => {
    const mock = createMockPartnerApi({ exportPolls: 0 });
    const path = '/financial/account-statement/export-report';
    for (const format of ['x/../y?z#w', 'xlsx\r\nSet-Cookie: a=b']) {
      const made = await call(mock, 'POST', path, { format });
      const done = await call(mock, 'GET', `${path}/${made.body.data.hash}`);
      const url = new URL(done.body.data.url);
      expect(url.pathname.startsWith('/downloads/exports/')).toBe(true);
      const file = await mock.fetch(url);
      expect(file.status).toBe(200);
      expect(file.headers.get('set-cookie')).toBeNull();
    }
  });
});
