/**
 * A one-off script ends by itself once its call has settled: nothing of the SDK's (a back-off
 * timer left by an abort, a poll or deadline timer, a login, a log or telemetry flush) holds the
 * event loop. Each script is a child process calling the testing kit on loopback here.
 */

import { createMockPartnerApi, type MockPartnerApi, type MockServer } from 'partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit } from './helpers/children';

/** How long a script may take to end after its last line: far under any back-off or poll timer. */
const EXIT_WITHIN_MS = 1_000;

let mock: MockPartnerApi;
let server: MockServer;
let env: Record<string, string>;

beforeAll(async () => {
  mock = createMockPartnerApi();
  server = await mock.listen();
  env = {
    BASE_URL: server.url,
    CLIENT_TOKEN: mock.credentials.clientToken,
    CLIENT_ID: mock.credentials.clientId,
    SECRET: mock.credentials.clientSecret,
    SELLER_TOKEN: mock.sellers.person.publicToken,
    PRODUCT: mock.products.course.hash,
  };
});
afterAll(() => server.close());

/** A transaction of its own for each refund scenario, so that earlier ones do not change it. */
const nextTransaction = () => mock.addTransaction(4_990);

const cases: Array<
  [scenario: string, outcome: string, setUp?: () => Record<string, string> | undefined]
> = [
  ['get', 'resolved'],
  ['get with response', 'resolved'],
  ['refund', 'resolved', () => ({ TRANSACTIONS: nextTransaction() })],
  ['login', 'resolved'],
  ['token function', 'resolved'],
  ['given up waiting for a token store', 'APIUserAbortError'],
  [
    'failed after retries',
    'InternalServerError',
    () => {
      mock.failNext({ status: 503, times: 3, path: '/products' });
    },
  ],
  [
    'timed out',
    'APIConnectionTimeoutError',
    () => {
      mock.failNext({ delayMs: 3_000 });
    },
  ],
  [
    'timed out after retries',
    'APIConnectionTimeoutError',
    () => {
      mock.failNext({ delayMs: 3_000, times: 2 });
    },
  ],
  [
    'Retry-After beyond the total timeout',
    'RateLimitError',
    () => {
      mock.failNext({ status: 429, retryAfter: 1, path: '/products' });
    },
  ],
  [
    'aborted in flight',
    'APIUserAbortError',
    () => {
      mock.failNext({ delayMs: 3_000 });
    },
  ],
  [
    'aborted during back-off',
    'APIUserAbortError',
    () => {
      mock.failNext({ status: 503, retryAfter: 2, times: 3, path: '/products' });
    },
  ],
  ['walk broken early', 'resolved'],
  ['wait finished', 'resolved', () => ({ TRANSACTIONS: nextTransaction() })],
  [
    'wait timed out',
    'PollTimeoutError',
    () => {
      const transaction = nextTransaction();
      mock.refundOutcome(transaction, 'completed', { polls: 1_000 });
      return { TRANSACTIONS: transaction };
    },
  ],
  [
    'wait aborted',
    'APIUserAbortError',
    () => {
      const transaction = nextTransaction();
      mock.refundOutcome(transaction, 'completed', { polls: 1_000 });
      return { TRANSACTIONS: transaction };
    },
  ],
  ['export waited', 'resolved'],
  ['debug log and telemetry', 'resolved'],
];

describe('a script that makes one call', () => {
  it.each(cases)(
    'ends by itself at once after a call: %s (%s)',
    async (scenario, outcome, setUp) => {
      mock.clearFaults();
      const ran = await runToExit<{ outcome: string; holding: string[] }>(
        'test/client-exits.child.ts',
        { ...env, ...setUp?.(), SCENARIO: scenario },
      );
      const { exitCode, printed, exitAfterMs } = ran;
      expect(printed.outcome).toBe(outcome);
      const { holding } = printed;
      expect(
        { exitCode, holding, promptly: exitAfterMs < EXIT_WITHIN_MS },
        `ended ${Math.round(exitAfterMs)} ms after its last line`,
      ).toEqual({ exitCode: 0, holding: [], promptly: true });
    },
  );
});
