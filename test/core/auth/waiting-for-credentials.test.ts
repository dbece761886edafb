import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, APIUserAbortError, PartnerClient } from '../../../src/index';
import { json, type StubServer, stubsClosedAfterEach } from '../../helpers/stub-server';
import { waitFor, withTimeout } from '../../helpers/waits';

// A call that waits for its credentials (the first login, a token function) waits within its own
// bounds: the caller's signal and its totalTimeout. The login it joined runs on for the others.

const stub = stubsClosedAfterEach();

const product = { hash: 'prd_1', name: 'Curso' };
const credentials = { clientId: 'waiting-client-id', clientSecret: 'waiting-client-secret' };

/** A service whose login answers only when `answerLogin` is called. */
async function slowLoginService() {
  let held: ServerResponse | undefined;
  const server = await stub((request, res) => {
    if (request.path === '/auth') held = res;
    else json(res, 200, product);
  });
  const loginArrived = () => waitFor(() => held !== undefined, 'the login to arrive');
  const answerLogin = async () => {
    await loginArrived();
    json(held!, 200, { client_token: 'waiting-login-token' });
  };
  return { server, loginArrived, answerLogin };
}

const slowClient = (s: StubServer) =>
  new PartnerClient({
    baseUrl: s.baseUrl,
    ...credentials,
    logLevel: 'off',
    timeout: 20_000,
    totalTimeout: 30_000,
  });

describe('waiting for credentials', () => {
  it('rejects with APIUserAbortError as soon as the caller aborts while the login hangs', async () => {
    const { server: s, loginArrived, answerLogin } = await slowLoginService();
    const client = slowClient(s);
    const controller = new AbortController();
    const call = client.products.retrieve('prd_1', { signal: controller.signal });
    await loginArrived();
    controller.abort();
    const error = await withTimeout(
      call.catch((e: unknown) => e),
      3_000,
      'the aborted call',
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    await answerLogin();
  });

  it("ends the wait for the login at the call's own totalTimeout", async () => {
    const { server: s, answerLogin } = await slowLoginService();
    const client = slowClient(s);
    const call = client.products.retrieve('prd_1', { totalTimeout: 100 });
    const error = await withTimeout(
      call.catch((e: unknown) => e),
      3_000,
      'the timed-out call',
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/^GET \/products\/prd_1 → .*100 ms for the call/);
    await answerLogin();
  });

  it('leaves the login running for the calls that wait on it: one login serves them all', async () => {
    const { server: s, answerLogin } = await slowLoginService();
    const client = slowClient(s);
    const controller = new AbortController();
    const aborted = client.products.retrieve('prd_1', { signal: controller.signal });
    const patient = client.products.retrieve('prd_1');
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(APIUserAbortError);
    await answerLogin();
    await expect(withTimeout(patient, 3_000, 'the patient call')).resolves.toEqual(product);
    expect(s.requests.filter((r) => r.path === '/auth')).toHaveLength(1);
    expect(s.requests.at(-1)?.headers['x-api-client-token']).toBe('waiting-login-token');
  });

  it("honours the caller's signal while a seller's token function hangs", async () => {
    const server = await stub((_r, res) => json(res, 200, product));
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'waiting-client-token',
      logLevel: 'off',
    });
    const seller = client.forUser(() => new Promise<string>(() => {}));
    const call = seller.products.retrieve('prd_1', { signal: AbortSignal.timeout(50) });
    const error = await withTimeout(
      call.catch((e: unknown) => e),
      3_000,
      'the aborted call',
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(server.requests).toHaveLength(0);
  });
});
