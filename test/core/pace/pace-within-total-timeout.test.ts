/**
 * `totalTimeout` bounds the whole call, the wait for the pace included: a pace that asks to wait
 * longer than the call has left (a fleet's pause after a 429 with a long `Retry-After`) ends the
 * call with a time-out when its time runs out, not when the pause does, and leaves no timer of the
 * SDK's behind. The caller's abort still ends the wait at once.
 */

import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  PartnerClient,
  type RequestPace,
} from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { activeTimers } from '../../helpers/leak-check';
import { withTimeout } from '../../helpers/waits';

/** A pace in a pause of `pauseMs`: each acquire waits it out, or rejects when its signal aborts. */
function pausedPace(pauseMs: number): RequestPace {
  return {
    forClient: () => ({
      acquire: (signal) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, pauseMs);
          signal?.addEventListener(
            'abort',
            () => {
              clearTimeout(timer);
              reject(signal.reason);
            },
            { once: true },
          );
        }),
      refused: () => undefined,
    }),
  };
}

function pacedClient(pace: RequestPace, totalTimeout: number) {
  const mock = createMockPartnerApi();
  return new PartnerClient({
    baseUrl: mock.baseUrl,
    clientToken: mock.credentials.clientToken,
    fetch: mock.fetch,
    logLevel: 'off',
    pace,
    totalTimeout,
  });
}

describe('a call waiting for its pace', () => {
  it('ends with a time-out when its totalTimeout runs out during a longer pause', async () => {
    const before = activeTimers();
    const started = performance.now();
    const call = pacedClient(pausedPace(20_000), 300).products.list();
    const error = await withTimeout(
      call.catch((e: unknown) => e),
      5_000,
      'the call to end',
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/pace/);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(activeTimers()).toBeLessThanOrEqual(before);
  });

  it('ends at once when its caller aborts during the pause', async () => {
    const call = pacedClient(pausedPace(20_000), 60_000).products.list(
      {},
      { signal: AbortSignal.timeout(100) },
    );
    const error = await withTimeout(
      call.catch((e: unknown) => e),
      5_000,
      'the call to end',
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
  });

  it('waits out a pause shorter than what it has left, and is answered', async () => {
    const page = await pacedClient(pausedPace(100), 5_000).products.list();
    expect(page.data.length).toBeGreaterThan(0);
  });
});
