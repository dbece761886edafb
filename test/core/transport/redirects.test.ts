/**
 * A request body goes to the origin of `baseUrl` or nowhere: a 307 or 308 (which repeat the
 * method and the body) pointing to another origin is not followed, so the personal data of a
 * bank account or a user's update never reaches a third party, even without credentials.
 * Redirects that continue as a GET without the body, and any redirect within the origin, are
 * followed as before. A redirect to another scheme (`file:`, `data:`) is never followed.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { APIError, PartnerClient, ResponseValidationError } from '../../../src/index';
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

describe("redirects: a proxy's 302 to its sign-in page on another origin", () => {
  /** An SSO host's sign-in page, and the service behind a proxy that sends every call there. */
  async function behindSignIn() {
    const sso = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form></form></body></html>',
      );
    });
    const service = await stub((req, res) => {
      const back = encodeURIComponent(`https://api.example/api/v1${req.path}`);
      res.writeHead(302, { location: `${sso.origin}/adfs/ls?wa=wsignin1.0&wreply=${back}` });
      res.end();
    });
    const seller = new PartnerClient({
      baseUrl: service.baseUrl,
      clientToken: 'sign-in-client-token-1',
      defaultHeaders: { 'x-partner-key': 'sign-in-partner-key-1' },
      logLevel: 'off',
    }).forUser('sign-in-seller-1');
    return { sso, service, seller };
  }

  const sent = (r: StubServer['requests'][number]) => [
    r.method,
    r.body,
    r.headers['x-api-client-token'],
    r.headers.authorization,
    r.headers['x-partner-key'],
  ];

  it('a read: the page fetched without credentials, a ResponseValidationError naming it', async () => {
    const { sso, seller } = await behindSignIn();
    const error = await seller.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const refused = error as ResponseValidationError;
    expect(refused.message).toBe(
      `GET ${sso.origin}/adfs/ls → 200 OK: unexpected response shape: the service answered with an HTML page`,
    );
    expect(refused.body).toMatch(/<title>Sign in<\/title>/);
    expect(sso.requests.map(sent)).toEqual([['GET', '', undefined, undefined, undefined]]);
  });

  it('a refund: sent once, its body and credentials never reaching the page', async () => {
    const { sso, service, seller } = await behindSignIn();
    const error = await seller.refunds
      .request('trx_1', { reason: 'Cobrança em duplicidade' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe(`${sso.origin}/adfs/ls`);
    expect(service.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/financial/refund/trx_1'],
    ]);
    expect(sso.requests.map(sent)).toEqual([['GET', '', undefined, undefined, undefined]]);
  });
});
