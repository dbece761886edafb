/**
 * A one-off bulk script ends by itself once its job has settled and its journal is closed: no
 * progress, pause or back-off timer of the job holds the event loop. Each script is a child process
 * calling the testing kit on loopback here.
 */

import { createMockPartnerApi, type MockPartnerApi, type MockServer } from 'partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit } from '../helpers/children';

/** How long a script may take to end after its last line: far under any back-off or pause. */
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
    SELLER_TOKEN: mock.sellers.person.publicToken,
  };
});
afterAll(() => server.close());

/** Transactions of their own for each scenario, so that earlier ones do not change them. */
const newTransactions = () => [mock.addTransaction(4_990), mock.addTransaction(990)].join(',');

const cases: Array<[scenario: string, outcome: string, setUp: () => void]> = [
  [
    'refunds with a journal and progress',
    '{"succeeded":2,"failed":0,"interrupted":0,"aborted":false}',
    () => {},
  ],
  [
    'refunds paused by a 429',
    '{"succeeded":2,"failed":0,"interrupted":0,"aborted":false}',
    () => mock.failNext({ status: 429, retryAfter: 1 }),
  ],
  ['refunds waited', '{"succeeded":2,"failed":0,"interrupted":0,"aborted":false}', () => {}],
  [
    'aborted during back-off',
    '{"succeeded":0,"failed":0,"interrupted":2,"aborted":true}',
    () => mock.failNext({ status: 503, retryAfter: 2, times: 4 }),
  ],
];

describe('a bulk script', () => {
  it.each(cases)('ends by itself at once after its job: %s', async (scenario, outcome, setUp) => {
    mock.clearFaults();
    setUp();
    const { printed, exitCode, exitAfterMs } = await runToExit<{
      outcome: string;
      holding: string[];
    }>('test/bulk/bulk-exits.child.ts', {
      ...env,
      TRANSACTIONS: newTransactions(),
      SCENARIO: scenario,
    });
    expect(printed.outcome).toBe(outcome);
    expect(
      { exitCode, holding: printed.holding, promptly: exitAfterMs < EXIT_WITHIN_MS },
      `ended ${Math.round(exitAfterMs)} ms after its last line`,
    ).toEqual({ exitCode: 0, holding: [], promptly: true });
  });
});
