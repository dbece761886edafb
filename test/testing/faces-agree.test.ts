/**
 * The kit's three faces answer one script of requests alike: `mock.fetch`, the loopback server of
 * `mock.listen()` and the msw handlers, each over a fresh kit. A partner moving a suite from one
 * face to another (msw in unit tests, the server for a process under test) must meet the same
 * service: the same statuses, headers that carry meaning, bodies and drops.
 */

import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing';
import { mswHandlers } from '../../src/testing/msw';

type Send = (url: string, init?: RequestInit) => Promise<Response>;

/** Headers whose value says something about the answer (not when, nor how it was framed). */
const SAID = ['content-type', 'location', 'allow', 'retry-after', 'content-disposition'];

/** What one answer says, with what differs by construction between kits made apart. */
async function said(answer: Response, base: string) {
  const origin = new URL(base).origin;
  const plain = (text: string) =>
    text
      .replaceAll(origin, 'ORIGIN')
      // Ids a kit draws at random, and the seconds of its clock.
      .replace(/\b(rfd|exp|sig)_\w+/g, '$1_ID')
      .replace(
        /\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}|\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/g,
        'TIME',
      );
  const headers = Object.fromEntries(
    SAID.map((name) => [name, plain(answer.headers.get(name) ?? '-')]),
  );
  return { status: answer.status, headers, body: plain(await answer.text()) };
}

/** The script: one request of each kind the kit answers differently, in one order. */
async function script(mock: MockPartnerApi, base: string, send: Send) {
  const client = { 'x-api-client-token': mock.credentials.clientToken };
  const seller = { ...client, authorization: `Bearer ${mock.sellers.person.publicToken}` };
  const json = { ...seller, 'content-type': 'application/json' };
  const exportBody = JSON.stringify({
    format: 'csv',
    filter: { betweenDates: '01/01/2026,31/01/2026' },
  });
  const trx = mock.transactions.refundable[0]!;
  const profile = new FormData();
  profile.set('name', 'Jo');
  const requests: Array<[string, string, RequestInit]> = [
    ['a page of products', '/products?page=2&per_page=3', { headers: client }],
    ['HEAD of a page', '/products?per_page=1', { method: 'HEAD', headers: client }],
    ['a trailing slash', '/products/?per_page=1', { headers: client }],
    ['a method the path lacks', '/products', { method: 'DELETE', headers: client }],
    ['OPTIONS', '/products', { method: 'OPTIONS', headers: client }],
    ['an unknown path', '/nope', { headers: client }],
    ['no client token', '/products', {}],
    ['no bearer', '/users/fee-tiers/history', { headers: client }],
    ['a refund', `/financial/refund/${trx}`, { method: 'POST', headers: json, body: '{}' }],
    ['the refund again', `/financial/refund/${trx}`, { method: 'POST', headers: json }],
    ['its status', `/financial/refund/${trx}/status`, { headers: seller }],
    [
      'an export',
      '/financial/account-statement/export-report',
      { method: 'POST', headers: json, body: exportBody },
    ],
    [
      'the export again',
      '/financial/account-statement/export-report',
      { method: 'POST', headers: json, body: exportBody },
    ],
    [
      'malformed JSON',
      '/financial/account-statement/export-report',
      { method: 'POST', headers: json, body: '{' },
    ],
    ['a multipart profile', '/users/update', { method: 'POST', headers: seller, body: profile }],
    [
      'a body over the limit',
      '/financial/account-statement/export-report',
      { method: 'POST', headers: json, body: 'x'.repeat(8 * 1024 * 1024 + 1) },
    ],
  ];
  const answers: unknown[] = [];
  const record = async (name: string, path: string, init: RequestInit) => {
    try {
      answers.push({ name, ...(await said(await send(`${base}${path}`, init), base)) });
    } catch (error) {
      answers.push({ name, rejected: (error as Error).name });
    }
  };
  for (const [name, path, init] of requests) await record(name, path, init);
  mock.failNext({ status: 503, retryAfter: 7, path: '/products' });
  await record('an injected 503', '/products', { headers: client });
  mock.failNext({ status: 204 });
  await record('an injected 204', '/products', { headers: client });
  mock.dropNext({ path: '/products' });
  await record('a dropped connection', '/products', { headers: client });
  mock.setOriginAllowed(false);
  await record('an origin refused', '/products', { headers: client });
  return answers;
}

describe("the kit's three faces", () => {
  it('answer one script of requests alike: statuses, headers, bodies and drops', async () => {
    const viaFetch = createMockPartnerApi();
    const byFetch = await script(viaFetch, viaFetch.baseUrl, viaFetch.fetch);

    const viaServer = createMockPartnerApi();
    const server = await viaServer.listen();
    const byServer = await script(viaServer, server.url, fetch).finally(() => server.close());

    const viaMsw = createMockPartnerApi();
    const msw = setupServer(...mswHandlers(viaMsw));
    msw.listen({ onUnhandledFrame: 'error' });
    const byMsw = await script(viaMsw, viaMsw.baseUrl, fetch).finally(() => msw.close());

    expect(byServer).toEqual(byFetch);
    expect(byMsw).toEqual(byFetch);
    // The script met what it meant to: a sample of the answers every face gave.
    expect(byFetch).toContainEqual(expect.objectContaining({ name: 'a refund', status: 202 }));
    expect(byFetch).toContainEqual(
      expect.objectContaining({ name: 'the export again', status: 409 }),
    );
    expect(byFetch).toContainEqual({ name: 'a dropped connection', rejected: 'TypeError' });
  });

  it('say no length of a HEAD answer, never a false 0, on the loopback server', async () => {
    const mock = createMockPartnerApi();
    const server = await mock.listen();
    try {
      const headers = { 'x-api-client-token': mock.credentials.clientToken };
      const head = await fetch(`${server.url}/products?per_page=1`, { method: 'HEAD', headers });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBeNull();
      const get = await fetch(`${server.url}/products?per_page=1`, { headers });
      expect(Number(get.headers.get('content-length'))).toBe((await get.arrayBuffer()).byteLength);
    } finally {
      await server.close();
    }
  });
});
