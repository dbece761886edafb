/**
 * A bulk job keeps the client's bound on `Retry-After`: a refusal asking for more than the 60 s the
 * SDK waits (a year, from a broken or hostile answer) fails its item at once with the error
 * carrying the full wait (`RateLimitError.retryAfterMs` on a 429), instead of pausing the job for it
 * (a pause past the timers' range also spun on a 1 ms timer).
 */

import type { RateLimitError } from 'partner-sdk';
import { requestRefunds } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { withTimeout } from '../helpers/waits';
import { collect, setup } from './support';

const YEAR_S = 365 * 24 * 3_600;

describe('a bulk job and a Retry-After longer than the SDK waits', () => {
  // A 429 says nothing was done; a refund request answered 503 may have been acted on.
  for (const [status, inDoubt] of [
    [429, false],
    [503, true],
  ] as const) {
    it(`${status} with Retry-After of a year: the item fails at once (in doubt: ${inDoubt}), sent once`, async () => {
      const { mock, seller, refundPosts } = setup({ refundPolls: 0 });
      const refused = mock.addTransaction();
      const other = mock.addTransaction();
      mock.failNext({ status, retryAfter: YEAR_S, path: `/financial/refund/${refused}` });
      const outcomes = await withTimeout(
        collect(requestRefunds(seller, [refused, other])),
        10_000,
        'the job',
      );
      const failed = outcomes.find((outcome) => outcome.key === refused);
      expect(failed).toMatchObject({ status: 'failed', inDoubt });
      const error = (failed as { error: RateLimitError }).error;
      expect(error.status).toBe(status);
      expect(error.headers.get('retry-after')).toBe(String(YEAR_S));
      if (status === 429) expect(error.retryAfterMs).toBe(YEAR_S * 1_000);
      expect(outcomes.find((outcome) => outcome.key === other)?.status).toBe('succeeded');
      expect(refundPosts(refused)).toBe(1);
    });
  }
});
