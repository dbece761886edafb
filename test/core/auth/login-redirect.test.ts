/**
 * The login obeys the origin rule of every credentialed call. A `POST /auth`
 * redirected to another origin (another port suffices) must not carry the client secret or
 * `defaultHeaders` there, and the SDK must not adopt a token from it.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { APIError, PartnerClient } from '../../../src/index';
import { json, type StubServer, startStub } from '../../helpers/stub-server';

const servers: StubServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const credentials = { clientId: 'client-id-1', clientSecret: 'client-secret-never-elsewhere' };

/** Another origin that answers a login with its own token, recording whatever reaches it. */
async function elsewhere(): Promise<StubServer> {
  const server = await startStub((_req, res) =>
    json(res, 200, { client_token: 'token-from-elsewhere' }),
  );
  servers.push(server);
  return server;
}

/** The service, whose login redirects to `target` with `status`. */
async function redirectingService(status: number, target: string): Promise<StubServer> {
  const server = await startStub((req, res) => {
    if (req.path === '/auth') {
      res.writeHead(status, { location: target });
      res.end();
      return;
    }
    json(res, 200, { token: req.headers['x-api-client-token'] });
  });
  servers.push(server);
  return server;
}

describe('a login redirected to another origin', () => {
  for (const status of [307, 308]) {
    it(`${status}: the secret never reaches the other origin and its token is not adopted`, async () => {
      const other = await elsewhere();
      const service = await redirectingService(status, `${other.baseUrl}/auth`);
      const client = new PartnerClient({ baseUrl: service.baseUrl, ...credentials });
      const error = await client
        .request({ method: 'GET', path: '/products' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(status);
      expect((error as APIError).message).toMatch(/another origin/);
      expect(other.requests).toEqual([]);
      expect(service.requests.map((r) => r.path)).toEqual(['/auth']);
    });
  }

  for (const status of [301, 302, 303]) {
    it(`${status}: defaultHeaders do not follow it either`, async () => {
      const other = await elsewhere();
      const service = await redirectingService(status, `${other.baseUrl}/auth`);
      const client = new PartnerClient({
        baseUrl: service.baseUrl,
        ...credentials,
        defaultHeaders: { 'x-gateway-key': 'gateway-secret-1' },
      });
      await expect(client.request({ method: 'GET', path: '/products' })).rejects.toBeInstanceOf(
        APIError,
      );
      expect(other.requests).toEqual([]);
    });
  }

  it('follows a login redirect within the same origin, body and all', async () => {
    const service = await startStub((req, res) => {
      if (req.path === '/auth') {
        res.writeHead(307, { location: '/api/v1/auth/v2' });
        res.end();
      } else if (req.path === '/auth/v2') {
        json(res, 200, { client_token: 'login-token-v2' });
      } else {
        json(res, 200, { token: req.headers['x-api-client-token'] });
      }
    });
    servers.push(service);
    const client = new PartnerClient({ baseUrl: service.baseUrl, ...credentials });
    expect(await client.request({ method: 'GET', path: '/products' })).toEqual({
      token: 'login-token-v2',
    });
    expect(JSON.parse(service.requests[1]?.body ?? '{}')).toEqual({
      client_id: 'client-id-1',
      client_secret: 'client-secret-never-elsewhere',
    });
  });
});
