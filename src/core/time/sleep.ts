/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as it aborts (clearing the timer
 * and the listener either way): the waits between retries and between polls.
 */

/** The longest delay one timer takes: Node and browsers cut a longer one to 1 ms. */
const MAX_STEP_MS = 2_147_483_647;

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let left = ms;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    // A wait past one timer's range (a service's Retry-After of a year) is taken in steps, rather
    // than cut to 1 ms, which would make every loop around it spin.
    const step = () => {
      const now = Math.min(left, MAX_STEP_MS);
      left -= now;
      timer = setTimeout(() => {
        if (left > 0) return step();
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, now);
    };
    step();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
