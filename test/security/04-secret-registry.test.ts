/**
 * Issue 13, item 4: after many sellers' tokens, the client's own credentials must still be masked
 * (the old registry evicted the oldest after 256), and a seller's token stays masked while its call
 * runs, however many other tokens pass meanwhile.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { APIError, PartnerClient } from '../../src/index';
import { json, type StubServer, startStub } from '../helpers/stub-server';

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clientSecret = 'registry-client-secret-0001';
const loginToken = 'registry-login-token-0001';

describe('the set of known secrets', () => {
  it("keeps the client's secret and token masked after 600 sellers' tokens", async () => {
    server = await startStub((req, res) => {
      if (req.path === '/auth') return json(res, 200, { client_token: loginToken });
      if (req.path === '/echo') {
        return json(res, 400, {
          message: `bad: ${clientSecret} / ${req.headers['x-api-client-token']}`,
        });
      }
      return json(res, 200, { data: [], meta: { current_page: 1, last_page: 1 } });
    });
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientId: 'registry-client-id',
      clientSecret,
      logLevel: 'off',
    });
    for (let seller = 0; seller < 600; seller++) {
      await client
        .forUser(`seller-public-token-${String(seller).padStart(5, '0')}`)
        .products.list();
    }
    const error = (await client
      .request({ method: 'GET', path: '/echo' })
      .catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.message).not.toContain(clientSecret);
    expect(error.message).not.toContain(loginToken);
    expect(JSON.stringify(error.body)).not.toContain(loginToken);
  });

  it("masks a seller's token echoed at the end of a call that outlived 600 other tokens", async () => {
    let releaseSlow: () => void = () => {};
    const slowReleased = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    server = await startStub(async (req, res) => {
      if (req.path === '/slow') {
        await slowReleased;
        return json(res, 422, { message: `refused ${req.headers.authorization}` });
      }
      return json(res, 200, {});
    });
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'registry-given-token-1',
      logLevel: 'off',
    });
    const slowToken = 'slow-seller-public-token-1';
    const slow = client
      .forUser(slowToken)
      .request({ method: 'GET', path: '/slow' })
      .catch((e: unknown) => e);
    for (let seller = 0; seller < 600; seller++) {
      await client.forUser(`other-public-token-${seller}`).request({ method: 'GET', path: '/x' });
    }
    releaseSlow();
    const error = (await slow) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.message).not.toContain(slowToken);
  });
});
