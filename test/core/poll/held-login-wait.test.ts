/**
 * A wait for a final status that meets a login the client holds back (`POST /auth` answered 429
 * with `Retry-After: 120`, so every call fails at once with that answer until it has passed): the
 * wait sleeps for the time the hold has LEFT, not the login answer's whole `Retry-After` again.
 * On fake time: the hold is minutes long.
 */

import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { kitClients } from '../../helpers/kit-clients';

afterEach(() => {
  vi.useRealTimers();
});

describe('a wait that meets a held-back login', () => {
  it('waits for what is left of the hold, then reads the final status', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
    });
    // Logging in with the kit's id and secret: the renewal below is a login.
    const { mock, seller } = kitClients(createMockPartnerApi({ refundPolls: 0 }));
    const hash = mock.addTransaction();
    await seller.refunds.request(hash);

    // The token expires and its renewal is answered 429 for 120 s: the hold starts here.
    mock.expireTokens();
    mock.failNext({ status: 429, retryAfter: 120, path: '/auth' });
    await expect(seller.refunds.retrieveStatus(hash)).rejects.toMatchObject({ status: 429 });
    await vi.advanceTimersByTimeAsync(100_000);

    const started = performance.now();
    let settled: unknown;
    const waiting = seller.refunds.waitForCompletion(hash).then((status) => {
      settled = status;
    });
    while (settled === undefined && performance.now() - started < 200_000) {
      await vi.advanceTimersByTimeAsync(250);
    }
    await waiting;
    const waitedMs = performance.now() - started;

    expect(settled).toMatchObject({ status: expect.any(String) });
    // 20 s of the hold were left (and a poll's own spacing at most); the login's whole 120 s was not waited again.
    expect(waitedMs).toBeGreaterThanOrEqual(20_000);
    expect(waitedMs).toBeLessThan(60_000);
  });
});
