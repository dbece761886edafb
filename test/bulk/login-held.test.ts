/**
 * A bulk job while its client holds its logins back: the login (`POST /auth`) was answered 429 or
 * 503 with a `Retry-After` longer than a call waits, so every call fails at once with that answer
 * until it has passed. The job waits it out, as it waits for a 429 on its own requests, and then
 * refunds every item once; it never burns its items into `failed`. On fake time: the hold is
 * minutes long.
 */

import { PartnerClient, RateLimitError } from 'partner-sdk';
import { requestRefunds } from 'partner-sdk/bulk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refundPostsTo } from '../helpers/kit-clients';
import { collect } from './support';

afterEach(() => {
  vi.useRealTimers();
});

/** The kit's client logging in with its id and secret (no token given), and its person seller. */
function loggingIn() {
  const mock = createMockPartnerApi({ refundPolls: 0 });
  const { clientToken: _given, ...credentials } = mock.credentials;
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...credentials,
    logLevel: 'off',
  });
  return { mock, seller: client.forUser(mock.sellers.person.publicToken) };
}

/** Waits for `settled` on fake time, in steps, for at most `limitMs` of it: its value and the time taken. */
async function onFakeTime<T>(settled: PromiseLike<T>, limitMs: number, stop: AbortController) {
  const started = performance.now();
  let value: { of: T } | undefined;
  const done = settled.then((of) => {
    value = { of };
  });
  while (!value && performance.now() - started < limitMs) {
    await vi.advanceTimersByTimeAsync(250);
  }
  const ms = performance.now() - started;
  stop.abort();
  await done;
  return { value: value!.of, ms };
}

const fakeTime = () =>
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
  });

describe('a bulk job while its client holds its logins back', () => {
  for (const status of [429, 503]) {
    it(`a login answered ${status} with Retry-After 120 s: the job waits it out, then refunds every item once`, async () => {
      fakeTime();
      const { mock, seller } = loggingIn();
      const hashes = Array.from({ length: 40 }, () => mock.addTransaction());
      mock.failNext({ status, retryAfter: 120, path: '/auth' });
      const stop = new AbortController();
      const job = requestRefunds(seller, hashes, { concurrency: 4, signal: stop.signal });
      const { value: summary, ms } = await onFakeTime(job, 600_000, stop);
      expect(summary).toMatchObject({ succeeded: 40, failed: 0, interrupted: 0 });
      // Nothing before the service's time: one refused login, one after it, each refund sent once.
      expect(ms).toBeGreaterThanOrEqual(120_000);
      expect(ms).toBeLessThan(130_000);
      expect(mock.requests.filter((r) => r.path === '/auth')).toHaveLength(2);
      for (const hash of hashes) expect(refundPostsTo(mock, hash)).toBe(1);
    });
  }

  it('a hold past what a job waits (a year, from a broken answer) fails the items at once with it, nothing sent', async () => {
    fakeTime();
    const { mock, seller } = loggingIn();
    const hashes = Array.from({ length: 5 }, () => mock.addTransaction());
    mock.failNext({ status: 429, retryAfter: 365 * 24 * 3_600, path: '/auth' });
    const stop = new AbortController();
    const job = requestRefunds(seller, hashes, { signal: stop.signal });
    const { value: outcomes, ms } = await onFakeTime(collect(job), 60_000, stop);
    expect(ms).toBeLessThan(5_000);
    expect(outcomes).toHaveLength(5);
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ status: 'failed', inDoubt: false });
      expect((outcome as { error: unknown }).error).toBeInstanceOf(RateLimitError);
    }
    expect(refundPostsTo(mock)).toBe(0);
  });
});
