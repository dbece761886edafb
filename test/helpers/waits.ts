/**
 * The tests' only ways to wait. Wait for an event where there is one: `waitFor` a condition the
 * event makes true, or `withTimeout` a promise it settles; both are bounded and say what they were
 * waiting for when time runs out. `sleep` is for tests about time itself (a delay the code must
 * keep, a body that trickles), and each call says why a fixed wait is the point.
 */

/** Resolves after `ms` of wall time. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Resolves once the microtasks queued so far have run and the event loop has turned once: what a
 * settled promise or an emitted event set in motion without I/O has happened by then.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Settles as `promise` does, or rejects naming `what` once `ms` have passed. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Resolves once `condition()` is true (or resolves true: a state read from Redis), checking it every
 * few milliseconds (a socket, a child's output or a server's handler make it true on their own turns
 * of the event loop); rejects naming `what` after `timeoutMs`.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(2);
  }
}
