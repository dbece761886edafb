/**
 * A wait a call makes before its first attempt (for its credentials: a login, a token function;
 * for its multipart body: a stream read into memory), bounded as the call is: by the caller's
 * signal and by what the call's `totalTimeout` leaves. Only this call stops waiting: what it waited
 * for runs on (a login other calls may be waiting on too keeps its own time-outs).
 */

import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  type RequestIdentity,
  requestLine,
} from '../errors';

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
 * `APIConnectionTimeoutError` when the call's time runs out first. A plain listener and timer
 * (a real one, not the transport's clock: this bound ends a wait, it decides no retry), both
 * removed as soon as the wait ends.
 */
export function withinCall<T>(waited: Promise<T>, bounds: WaitBounds): Promise<T> {
  const { signal, identity } = bounds;
  return new Promise<T>((resolve, reject) => {
    const end = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => {
      const message = `${requestLine(identity)} was aborted by the caller.`;
      end(() => reject(new APIUserAbortError(message, { cause: signal?.reason })));
    };
    const timer = setTimeout(
      () => {
        const detail = `no ${bounds.what} in time (${bounds.totalTimeout} ms for the call)`;
        end(() => reject(new APIConnectionTimeoutError(identity, detail)));
      },
      Math.max(1, bounds.leftMs),
    );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    waited.then(
      (value) => end(() => resolve(value)),
      (error: unknown) => end(() => reject(error)),
    );
  });
}
