/**
 * The caller's signal, whatever it is made of: an abort while the request is out ends the call at
 * once with `APIUserAbortError` whose `cause` is the signal's own reason (a string, `undefined`
 * made into the platform's `AbortError`, an Error); `AbortSignal.timeout()` is the caller's abort,
 * never the SDK's `timeout`, and the SDK's `timeout` is never taken for an abort; `AbortSignal.any()`
 * works as its parts; a signal that fired once ends every later call given it, sending nothing.
 */

import { describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, APIUserAbortError, PartnerClient } from '../../../src/index';
import { type StubServer, stubsClosedAfterEach } from '../../helpers/stub-server';
import { waitFor, withTimeout } from '../../helpers/waits';

const stub = stubsClosedAfterEach();

/** A service that never answers a product, with the client of it (a client token: no login). */
async function silentService(): Promise<{ server: StubServer; client: PartnerClient }> {
  const server = await stub(() => {});
  const client = new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'cancelling-client-token',
    logLevel: 'off',
  });
  return { server, client };
}

const arrived = (server: StubServer, count = 1) =>
  waitFor(() => server.requests.length >= count, 'the request to arrive');

/** The call's error, which must come within `ms` of the abort. */
const failure = (call: Promise<unknown>, ms = 2_000) =>
  withTimeout(
    call.then(
      () => undefined,
      (error: unknown) => error,
    ),
    ms,
    'the aborted call',
  );

describe('aborting a call while its request is out', () => {
  it.each([
    ['a string', 'operator stop'],
    ['an Error', new Error('shutting down')],
    ['undefined (the platform makes it an AbortError)', undefined],
  ])(
    'ends it at once with APIUserAbortError, its cause the reason, given %s',
    async (_, reason) => {
      const { server, client } = await silentService();
      const controller = new AbortController();
      const call = client.products.retrieve('prd_1', { signal: controller.signal });
      await arrived(server);
      controller.abort(reason);
      const error = await failure(call);
      expect(error).toBeInstanceOf(APIUserAbortError);
      expect((error as APIUserAbortError).cause).toBe(controller.signal.reason);
      if (reason === undefined)
        expect((error as Error).cause).toMatchObject({ name: 'AbortError' });
      expect(server.requests).toHaveLength(1);
    },
  );

  it('through AbortSignal.any(), as through the signal that fired', async () => {
    const { server, client } = await silentService();
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(60_000)]);
    const call = client.products.retrieve('prd_1', { signal });
    await arrived(server);
    controller.abort('operator stop');
    const error = await failure(call);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe('operator stop');
  });

  it('ends every later call given the same signal at once, sending nothing', async () => {
    const { server, client } = await silentService();
    const controller = new AbortController();
    const first = client.products.retrieve('prd_1', { signal: controller.signal });
    await arrived(server);
    controller.abort('once');
    await failure(first);
    const again = await failure(client.products.list({}, { signal: controller.signal }));
    expect(again).toBeInstanceOf(APIUserAbortError);
    expect((again as APIUserAbortError).cause).toBe('once');
    expect(server.requests).toHaveLength(1);
  });
});

describe('aborting a call over a custom fetch that does not heed the signal it is given', () => {
  /** A client over a `fetch` that drops the signal (as a wrapper rebuilding the request may), and what it was handed. */
  function deafClient() {
    const handed = { count: 0 };
    const deafFetch = (() => {
      handed.count++;
      return new Promise<Response>(() => {});
    }) as typeof fetch;
    const client = new PartnerClient({
      baseUrl: 'http://127.0.0.1:9/api/v1',
      clientToken: 'cancelling-client-token',
      logLevel: 'off',
      fetch: deafFetch,
    });
    return { client, handed };
  }

  it('hands it nothing once the signal has fired', async () => {
    const { client, handed } = deafClient();
    const error = await failure(
      client.refunds.request('trx_1', {}, { signal: AbortSignal.abort('stopped before') }),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(handed.count).toBe(0);
  });

  it('ends the call at once when the signal aborts', async () => {
    const { client, handed } = deafClient();
    const controller = new AbortController();
    const call = client.products.retrieve('prd_1', { signal: controller.signal });
    await waitFor(() => handed.count === 1, 'the request to be handed to fetch');
    controller.abort('operator stop');
    const error = await failure(call);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe('operator stop');
    expect(handed.count).toBe(1);
  });
});

describe('the signal and the timeout options', () => {
  it('AbortSignal.timeout() is the caller’s abort (APIUserAbortError), not the SDK’s time-out', async () => {
    const { client } = await silentService();
    const signal = AbortSignal.timeout(100);
    const error = await failure(
      client.products.retrieve('prd_1', { signal, timeout: 20_000, maxRetries: 0 }),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe(signal.reason);
    expect((error as Error).cause).toMatchObject({ name: 'TimeoutError' });
  });

  it('the SDK’s timeout beside a signal that never fires is APIConnectionTimeoutError', async () => {
    const { client } = await silentService();
    const controller = new AbortController();
    const error = await failure(
      client.products.retrieve('prd_1', { signal: controller.signal, timeout: 100, maxRetries: 0 }),
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(controller.signal.aborted).toBe(false);
  });

  it('an abort in the back-off after a timed-out attempt is APIUserAbortError, not that time-out', async () => {
    const { server } = await silentService();
    const controller = new AbortController();
    const quiet = () => {};
    // Logged as the wait before the retry starts.
    const warn = (message: unknown) =>
      String(message).includes('retrying') && controller.abort('stop');
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'cancelling-client-token',
      logger: { debug: quiet, info: quiet, warn, error: quiet },
    });
    const error = await failure(
      client.products.retrieve('prd_1', { signal: controller.signal, timeout: 100, maxRetries: 2 }),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe('stop');
    expect(server.requests).toHaveLength(1);
  });
});
