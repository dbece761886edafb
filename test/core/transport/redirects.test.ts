/**
 * A request body goes to the origin of `baseUrl` or nowhere: a 307 or 308 (which repeat the
 * method and the body) pointing to another origin is not followed, so the personal data of a
 * bank account or a user's update never reaches a third party, even without credentials.
 * Redirects that continue as a GET without the body, and any redirect within the origin, are
 * followed as before. A redirect to another scheme (`file:`, `data:`) is never followed.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { APIError, PartnerClient } from '../../../src/index';
import { json, type StubServer, startStub } from '../../helpers/stub-server';

const servers: StubServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function stub(handler: Parameters<typeof startStub>[0]): Promise<StubServer> {
  const server = await startStub(handler);
  servers.push(server);
  return server;
}

/** The service: every call but the login answers `status` with a Location to `target`. */
function redirecting(status: number, target: () => string): Promise<StubServer> {
  return stub((req, res) => {
    if (req.path.startsWith('/moved')) return json(res, 200, { code: 'acc_1' });
    res.writeHead(status, { location: target() });
    res.end();
  });
}

const pix = {
  receiver_type: 'pix',
  pix_key: '123.456.789-09',
  holder_name: 'Maria Souza',
} as const;

const sellerOf = (service: StubServer) =>
  new PartnerClient({
    baseUrl: service.baseUrl,
    clientToken: 'body-origin-token-1',
    logLevel: 'off',
    maxRetries: 0,
  }).forUser('body-origin-seller-1');

describe('redirects: a request body stays on the origin of baseUrl', () => {
  for (const status of [307, 308]) {
    it(`${status} to another origin: not followed, the body never sent there`, async () => {
      const other = await stub((_req, res) => json(res, 200, { code: 'acc_1' }));
      const service = await redirecting(status, () => `${other.baseUrl}/moved`);
      const error = await sellerOf(service)
        .bankAccounts.update('acc_1', pix)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(status);
      expect((error as APIError).message).toMatch(/another origin/);
      expect(other.requests).toEqual([]);
      expect(service.requests).toHaveLength(1);
    });
  }

  it('307 within the origin: followed, body, credentials and all', async () => {
    const service = await redirecting(307, () => `${service.origin}/api/v1/moved`);
    await sellerOf(service).bankAccounts.update('acc_1', pix);
    expect(service.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/users/bank-accounts/acc_1'],
      ['POST', '/moved'],
    ]);
    expect(JSON.parse(service.requests[1]?.body ?? '')).toMatchObject(pix);
    expect(service.requests[1]?.headers.authorization).toBe('Bearer body-origin-seller-1');
  });

  it('303 to another origin: followed as a GET, without the body or credentials', async () => {
    const other = await stub((_req, res) => json(res, 200, { code: 'acc_1' }));
    const service = await redirecting(303, () => `${other.baseUrl}/moved`);
    await sellerOf(service).bankAccounts.update('acc_1', pix);
    expect(other.requests.map((r) => [r.method, r.body, r.headers.authorization])).toEqual([
      ['GET', '', undefined],
    ]);
  });

  it('a redirect to file: or data: is not followed, whatever the call', async () => {
    for (const location of ['file:///etc/passwd', 'data:application/json,{"code":"acc_1"}']) {
      const service = await redirecting(302, () => location);
      const error = await sellerOf(service)
        .bankAccounts.update('acc_1', pix)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).message).toMatch(/redirect without a usable Location/);
      expect(service.requests).toHaveLength(1);
    }
  });
});

describe('redirects: credentials never come back once a call has left the origin', () => {
  it('a hop back to baseUrl’s origin, chosen by another origin, carries no credentials', async () => {
    let other: StubServer | undefined;
    const service = await stub((req, res) => {
      if (req.path.endsWith('/start')) {
        res.writeHead(302, { location: `${other!.baseUrl}/bounce` });
        res.end();
        return;
      }
      json(res, 200, { reached: req.path });
    });
    other = await stub((_req, res) => {
      // A hostile file host sends the caller back to the service, to a path of its choosing.
      res.writeHead(302, { location: `${service.baseUrl}/refunds/tx_1` });
      res.end();
    });
    const body = await sellerOf(service).request({ method: 'GET', path: '/start' });
    expect(body).toEqual({ reached: '/refunds/tx_1' });
    const credentials = (r: StubServer['requests'][number]) => [
      r.path,
      r.headers['x-api-client-token'],
      r.headers.authorization,
    ];
    expect(service.requests.map(credentials)).toEqual([
      ['/start', 'body-origin-token-1', 'Bearer body-origin-seller-1'],
      ['/refunds/tx_1', undefined, undefined],
    ]);
    expect(other.requests.map(credentials)).toEqual([['/bounce', undefined, undefined]]);
  });

  it('a redirect within the origin keeps them', async () => {
    const service = await stub((req, res) => {
      if (req.path.endsWith('/start')) {
        res.writeHead(302, { location: '/api/v1/refunds/tx_1' });
        res.end();
        return;
      }
      json(res, 200, { reached: req.path });
    });
    await sellerOf(service).request({ method: 'GET', path: '/start' });
    expect(service.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer body-origin-seller-1',
      'Bearer body-origin-seller-1',
    ]);
  });
});
