/**
 * A wait a call makes before its first attempt (for its credentials: a login, a token function;
 * for its multipart body: a stream read into memory), bounded as the call is: by the caller's
 * signal and by what the call's `totalTimeout` leaves. Only this call stops waiting: what it waited
 * for runs on (a login other calls may be waiting on too keeps its own time-outs).
 */

import { APIConnectionTimeoutError, APIUserAbortError, type RequestIdentity } from '../errors';
import { sleep } from './sleep';

/** What a call's wait is bounded by, and how its errors name it. */
export interface WaitBounds {
  signal: AbortSignal | undefined;
  /** Milliseconds the call has left of its `totalTimeout`. */
  leftMs: number;
  /** The call's `totalTimeout`, for the time-out's message. */
  totalTimeout: number;
  identity: RequestIdentity;
  /** What is waited for, for the time-out's message (`credentials`, `request body`). */
  what: string;
}

/**
 * `waited` within `bounds`: rejects with `APIUserAbortError` as soon as the caller aborts, or with
 * `APIConnectionTimeoutError` when the call's time runs out first.
 */
export async function withinCall<T>(waited: Promise<T>, bounds: WaitBounds): Promise<T> {
  const { signal, identity } = bounds;
  const settled = new AbortController();
  const stop = signal ? AbortSignal.any([signal, settled.signal]) : settled.signal;
  // A real timer, not the transport's clock: this bound ends a wait, it decides no retry.
  const limit = sleep(Math.max(1, bounds.leftMs), stop).then(
    () => {
      const detail = `no ${bounds.what} in time (${bounds.totalTimeout} ms for the call)`;
      throw new APIConnectionTimeoutError(identity, detail);
    },
    () => {
      if (!signal?.aborted) return new Promise<never>(() => {});
      const message = `${identity.method} ${identity.path} was aborted by the caller.`;
      throw new APIUserAbortError(message, { cause: signal.reason });
    },
  );
  try {
    return await Promise.race([waited, limit]);
  } finally {
    settled.abort();
  }
}
