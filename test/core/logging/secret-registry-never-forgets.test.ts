/**
 * After many sellers' tokens, the client's own credentials must still be masked
 * (the old registry evicted the oldest after 256), and a seller's token stays masked while its call
 * runs, however many other tokens pass meanwhile.
 *
 * The service is an in-process `fetch` rather than a loopback server: the registry is all that is
 * tested here, and 600 calls over sockets took seconds on a loaded machine, long enough to run out
 * the test's time.
 */

import { describe, expect, it } from 'vitest';
import { APIError, PartnerClient } from '../../../src/index';

const clientSecret = 'registry-client-secret-0001';
const loginToken = 'registry-login-token-0001';
const BASE_URL = 'http://registry.test/api/v1';

/** A `fetch` answering by path, like a server would; `answer` may wait. */
function service(
  answer: (path: string, headers: Headers) => Response | Promise<Response>,
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    return answer(new URL(request.url).pathname.replace(/^\/api\/v1/, ''), request.headers);
  };
}

const json = (status: number, body: unknown) => Response.json(body, { status });

describe('the set of known secrets', () => {
  it("keeps the client's secret and token masked after 600 sellers' tokens", async () => {
    const client = new PartnerClient({
      baseUrl: BASE_URL,
      clientId: 'registry-client-id',
      clientSecret,
      logLevel: 'off',
      fetch: service((path, headers) => {
        if (path === '/auth') return json(200, { client_token: loginToken });
        if (path === '/echo') {
          return json(400, {
            message: `bad: ${clientSecret} / ${headers.get('x-api-client-token')}`,
          });
        }
        return json(200, { data: [], meta: { current_page: 1, last_page: 1 } });
      }),
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
    expect(error.message).toContain('bad: ');
    expect(error.message).not.toContain(clientSecret);
    expect(error.message).not.toContain(loginToken);
    expect(JSON.stringify(error.body)).not.toContain(loginToken);
  });

  it("masks a seller's token echoed at the end of a call that outlived 600 other tokens", async () => {
    let releaseSlow: () => void = () => {};
    const slowReleased = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    let slowArrived: () => void = () => {};
    const slowStarted = new Promise<void>((resolve) => {
      slowArrived = resolve;
    });
    const client = new PartnerClient({
      baseUrl: BASE_URL,
      clientToken: 'registry-given-token-1',
      logLevel: 'off',
      fetch: service(async (path, headers) => {
        if (path === '/slow') {
          slowArrived();
          await slowReleased;
          return json(422, { message: `refused ${headers.get('authorization')}` });
        }
        return json(200, {});
      }),
    });
    const slowToken = 'slow-seller-public-token-1';
    const slow = client
      .forUser(slowToken)
      .request({ method: 'GET', path: '/slow' })
      .catch((e: unknown) => e);
    // The slow call is on its way (its token in use) before the 600 others pass.
    await slowStarted;
    for (let seller = 0; seller < 600; seller++) {
      await client.forUser(`other-public-token-${seller}`).request({ method: 'GET', path: '/x' });
    }
    releaseSlow();
    const error = (await slow) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.message).toContain('refused');
    expect(error.message).not.toContain(slowToken);
  });
});
