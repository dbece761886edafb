/**
 * The shape of a wait's poll options as plain JavaScript may give them: an object of the known
 * options, with a real `AbortSignal`. Their values' ranges are the poll loop's (`index.ts`).
 */

import { RequestValidationError } from '../errors';
import { isAbortSignal, isOptionsObject, shownValue, unknownOptions } from '../options/given';
import type { PollOptions } from './index';

/** Every option of `PollOptions`: the compiler keeps this list whole. */
const POLL_OPTIONS = Object.keys({
  interval: true,
  maxInterval: true,
  timeout: true,
  signal: true,
  onStatus: true,
} satisfies Record<keyof PollOptions, true>);

/**
 * Refuses, as a `RequestValidationError`, poll options no wait can read: not an object, an unknown key, a signal that is none. */
export function checkPollOptionsShape(options: unknown): void {
  if (options === undefined) return;
  const issue = (message: string, code = 'invalid_type', path: string[] = []): never => {
    throw new RequestValidationError('Invalid poll options', [{ path, message, code }]);
  };
  if (!isOptionsObject(options)) issue(`expected an object (got ${shownValue(options)})`);
  const [unknown] = unknownOptions(options as object, POLL_OPTIONS);
  if (unknown) issue(unknown, 'unrecognized_keys');
  const { signal } = options as PollOptions;
  if (signal !== undefined && !isAbortSignal(signal)) {
    issue(`must be an AbortSignal (got ${shownValue(signal)})`, 'invalid_type', ['signal']);
  }
}
