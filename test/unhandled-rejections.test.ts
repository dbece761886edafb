/**
 * No call path leaves a promise rejection unhandled: an abort or a time-out during a back-off or a
 * body, a throwing logger, telemetry provider, token function or store, `onStatus` or bulk
 * `onProgress`, a webhook handler that fails after its answer was sent, a receiver's throwing
 * `verify`, `dedupeKey` or `onUnknown`. Run in a child process
 * with `--unhandled-rejections=strict`, where any would be reported.
 */

import { expect, it } from 'vitest';
import { runToExit } from './helpers/children';

it('leaves no rejection unhandled on any call path that ends badly', async () => {
  const { printed, exitCode } = await runToExit<{
    outcomes: Record<string, string>;
    unhandled: string[];
  }>('test/unhandled-rejections.child.ts', {}, 60_000, ['--unhandled-rejections=strict']);
  expect(printed.unhandled).toEqual([]);
  // Each scenario ends as a partner would expect, by its own error or the SDK's; none hangs.
  expect(printed.outcomes).toEqual({
    'abort during back-off': 'APIUserAbortError',
    'timeout during back-off': 'InternalServerError',
    'timeout during body read': 'APIConnectionTimeoutError',
    'abort during body read': 'APIUserAbortError',
    'a walk whose next page fails': 'InternalServerError',
    'a throwing logger, on success, retries and failure': 'UnprocessableEntityError',
    'a throwing tracer provider': 'resolved',
    'a throwing meter provider': 'resolved',
    'spans that throw': 'resolved',
    // The partner's token function failing is bad input, not a connection that failed.
    'a throwing token function': 'RequestValidationError',
    'a rejecting token function': 'RequestValidationError',
    'a throwing token store': 'resolved',
    'a login refused while many calls wait': 'resolved',
    'a throwing onStatus': 'Error',
    'a poll aborted': 'APIUserAbortError',
    'only withResponse awaited': 'NotFoundError',
    'a bulk job whose onProgress throws': 'Error',
    'a bulk job aborted during back-off': 'resolved',
    // Each receiver answers 500, so the sender delivers again.
    'receivers whose verify, dedupeKey or onUnknown throw': 'resolved 500 500 500 500',
    'a receiver whose handler throws after its answer': 'resolved 500',
  });
  expect(exitCode).toBe(0);
}, 70_000);
