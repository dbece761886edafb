/**
 * Fields the error classes' TSDoc and the errors guide promise, read where a partner reads them:
 * an abort's `cause` is the signal's reason, a connection that failed has no `status` or `body`
 * and its `cause` leads to the system's code, a wait no poll answered times out with
 * `lastStatus` `undefined`.
 */

import {
  APIConnectionError,
  APIUserAbortError,
  PartnerClient,
  PollTimeoutError,
} from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { kitClients } from '../../helpers/kit-clients';
import { withTimeout } from '../../helpers/waits';

/** What `promise` rejects with, within a bound. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return withTimeout(
    promise.then(
      () => {
        throw new Error('it resolved');
      },
      (error: unknown) => error,
    ),
    5_000,
    'the rejection',
  );
}

describe('APIUserAbortError: "cause is the signal\'s reason"', () => {
  it('of a call', async () => {
    const { client } = kitClients(createMockPartnerApi());
    const controller = new AbortController();
    const reason = new Error('the user closed the page');
    const call = client.products.list({}, { signal: controller.signal });
    controller.abort(reason);
    const error = await rejectionOf(call);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe(reason);
    expect((error as Error).message).toBe('GET /products was aborted by the caller.');
  });

  it('of a wait', async () => {
    const { mock, seller } = kitClients(createMockPartnerApi());
    const transaction = mock.addTransaction(1_000, { seller: mock.sellers.person.code });
    const accepted = await seller.refunds.request(transaction);
    const controller = new AbortController();
    const reason = new Error('shutting down');
    const waiting = seller.refunds.waitForCompletion(accepted, {
      interval: 60_000,
      signal: controller.signal,
      onStatus: () => controller.abort(reason),
    });
    const error = await rejectionOf(waiting);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe(reason);
  });
});

describe('APIConnectionError without an answer', () => {
  it('has no status or body, and its cause leads to the system code', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    const client = new PartnerClient({
      baseUrl: 'https://partner.test/api/v1',
      clientToken: 'documented-fields-token',
      logLevel: 'off',
      maxRetries: 0,
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: refused });
      },
    });
    const error = await rejectionOf(client.products.retrieve('prd_1'));
    expect(error).toBeInstanceOf(APIConnectionError);
    const failed = error as APIConnectionError;
    expect([failed.status, failed.body]).toEqual([undefined, undefined]);
    expect([failed.method, failed.path]).toEqual(['GET', '/products/prd_1']);
    expect(failed.message).toBe(
      'GET /products/prd_1 → connection failed: connect ECONNREFUSED 127.0.0.1:9',
    );
    // The runtime's own error: fetch's, whose cause is the system's.
    expect((failed.cause as Error).cause).toBe(refused);
  });

  it("keeps the system code down its cause's chain when fetch's own error quotes a secret", async () => {
    const token = 'documented-fields-quoted-token';
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    const client = new PartnerClient({
      baseUrl: 'https://partner.test/api/v1',
      clientToken: token,
      logLevel: 'off',
      maxRetries: 0,
      fetch: async () => {
        throw new TypeError(`fetch failed with x-api-client-token ${token}`, { cause: refused });
      },
    });
    const failed = (await rejectionOf(client.products.retrieve('prd_1'))) as APIConnectionError;
    const cause = failed.cause as Error;
    // A masked copy of fetch's error: its class, its message without the token, its own cause.
    expect(cause).toBeInstanceOf(TypeError);
    expect(cause.message).toBe('fetch failed with x-api-client-token [REDACTED]');
    expect(cause.stack).not.toContain(token);
    expect((cause.cause as { code?: unknown }).code).toBe('ECONNREFUSED');
  });
});

describe('PollTimeoutError: "lastStatus undefined when no poll answered"', () => {
  it('names the wait, no status, and how long it waited', async () => {
    const { mock, seller } = kitClients(createMockPartnerApi());
    const transaction = mock.addTransaction(1_000, { seller: mock.sellers.person.code });
    const accepted = await seller.refunds.request(transaction);
    // Every poll hangs past the wait's own timeout.
    mock.failNext({ method: 'GET', path: /\/status$/, delayMs: 30_000, times: 10 });
    const error = await rejectionOf(seller.refunds.waitForCompletion(accepted, { timeout: 200 }));
    expect(error).toBeInstanceOf(PollTimeoutError);
    const timedOut = error as PollTimeoutError;
    expect(timedOut.lastStatus).toBeUndefined();
    expect(timedOut.waitedMs).toBeGreaterThanOrEqual(200);
    expect(timedOut.message).toMatch(/did not finish within \d+ ms \(last status: none seen\)$/);
  });
});
