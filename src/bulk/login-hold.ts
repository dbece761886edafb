/**
 * A login the client holds back, as a bulk job and a queue processor wait for it: the login was
 * refused (429 or 503) with a `Retry-After` longer than a call waits, and until it has passed
 * every call fails at once with that answer, having sent nothing. Every call needs the client's
 * token, so the whole job (or queue) waits for the hold's end, then goes on.
 *
 * @module
 */

import { loginHeldFor } from '../core/retry/classify';

/**
 * The longest hold of the client's logins a job or a queue waits out. A longer one (hours, or a
 * year from a broken answer) fails as a call does, with the login's answer: waiting would stop
 * the job silently for longer than anyone watches it.
 */
export const MAX_LOGIN_HOLD_MS = 15 * 60_000;

/**
 * The milliseconds to wait when `error` is a call's failure while the client holds its logins
 * back for at most {@link MAX_LOGIN_HOLD_MS} more; `undefined` for any other failure.
 */
export function loginHoldWait(error: unknown): number | undefined {
  const left = loginHeldFor(error);
  return left !== undefined && left <= MAX_LOGIN_HOLD_MS ? left : undefined;
}
