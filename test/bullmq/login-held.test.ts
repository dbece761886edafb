/**
 * The processors while their client holds its logins back: the login (`POST /auth`) was answered
 * 429 or 503 with a `Retry-After` longer than a call waits, so every call fails at once with that
 * answer until it has passed. A job then goes back to waiting and the whole queue is held for the
 * time the hold has left (as for a 429 on the job's own request), no attempt counted and nothing
 * sent; after it the jobs run. Against the kit in-process, on a fake clock: the hold is minutes.
 */

import { RateLimitError } from 'bullmq';
import { PartnerClient } from 'partner-sdk';
import { offerUpdateProcessor, type ProcessorJob, refundProcessor } from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refundPostsTo } from '../helpers/kit-clients';

afterEach(() => {
  vi.useRealTimers();
});

/** The kit's client logging in with its id and secret (no token given), its seller and a queue recording its holds. */
function loggingIn() {
  vi.useFakeTimers({ toFake: ['Date'] });
  const mock = createMockPartnerApi({ refundPolls: 0 });
  const { clientToken: _given, ...credentials } = mock.credentials;
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...credentials,
    logLevel: 'off',
  });
  const holds: number[] = [];
  const queue = { rateLimit: async (ms: number) => void holds.push(ms) };
  const logins = () => mock.requests.filter((r) => r.path === '/auth').length;
  return { mock, seller: client.forUser(mock.sellers.person.publicToken), queue, holds, logins };
}

const job = <D>(data: D): ProcessorJob<D> => ({
  id: 'job',
  data,
  timestamp: Date.now(),
  attemptsMade: 0,
  attemptsStarted: 1,
});

describe('the processors while the client holds its logins back', () => {
  for (const status of [429, 503]) {
    it(`a login answered ${status} with Retry-After 120 s puts the jobs back and holds the queue for it; then they run`, async () => {
      const { mock, seller, queue, holds, logins } = loggingIn();
      const [first, second] = [mock.addTransaction(), mock.addTransaction()];
      mock.failNext({ status, retryAfter: 120, path: '/auth' });
      const refunds = refundProcessor(seller, { queue });
      for (const hash of [first, second]) {
        await expect(refunds(job({ transactionHash: hash }))).rejects.toBeInstanceOf(
          RateLimitError,
        );
      }
      const offers = offerUpdateProcessor(seller, { queue });
      const offer = { productHash: 'prd_none', offerCode: 'off_none', params: { price: 1_990 } };
      await expect(offers(job(offer))).rejects.toBeInstanceOf(RateLimitError);
      expect(holds).toHaveLength(3);
      for (const ms of holds) {
        expect(ms).toBeGreaterThan(110_000);
        expect(ms).toBeLessThanOrEqual(120_000);
      }
      expect(logins()).toBe(1);
      expect(refundPostsTo(mock)).toBe(0);

      vi.advanceTimersByTime(120_000);
      for (const hash of [first, second]) {
        await expect(refunds(job({ transactionHash: hash }))).resolves.toMatchObject({
          status: 'succeeded',
          reconciled: false,
        });
        expect(refundPostsTo(mock, hash)).toBe(1);
      }
      expect(logins()).toBe(2);
    });
  }
});
