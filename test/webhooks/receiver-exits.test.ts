/**
 * A webhook process ends by itself once its server is closed: nothing of the receiver's (a body or
 * handler time limit, the in-memory dedupe store) holds the event loop.
 */

import { expect, it } from 'vitest';
import { runToExit } from '../helpers/children';

const EXIT_WITHIN_MS = 1_000;

it('lets the process end once the server is closed, after deliveries that timed out, failed and repeated', async () => {
  const { printed, exitCode, exitAfterMs } = await runToExit<{
    statuses: number[];
    holding: string[];
  }>('test/webhooks/receiver-exits.child.ts', {});
  expect(printed.statuses).toEqual([200, 200, 500, 500, 408]);
  expect(
    { exitCode, holding: printed.holding, promptly: exitAfterMs < EXIT_WITHIN_MS },
    `ended ${Math.round(exitAfterMs)} ms after its last line`,
  ).toEqual({ exitCode: 0, holding: [], promptly: true });
});
