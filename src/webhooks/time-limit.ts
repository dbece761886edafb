/**
 * Running partner code (a handler, `verify`, `dedupeKey`, a store call) within a time limit,
 * turning a throw, a rejection and a hang into values, so the receiver always has an answer.
 *
 * @module
 */

import { PartnerError } from '../core/errors';

/** How a bounded call ended. */
export type Settled<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: unknown; readonly timedOut: boolean };

/**
 * Calls `work` and waits at most `timeoutMs` for it. A throw or a rejection gives its error; a
 * hang gives a {@link WebhookTimeoutError} (with `timedOut: true`), and `onLate` hears how the
 * abandoned call ended if it ever rejects, so that nothing is left as an unhandled rejection.
 *
 * @example
 * ```ts
 * const result = await settleWithin(() => store.claim(key, options), 30_000, 'the dedupe store');
 * if (!result.ok) report(result.error);
 * ```
 */
export async function settleWithin<T>(
  work: () => T | PromiseLike<T>,
  timeoutMs: number,
  what: string,
  onLate?: (error: unknown) => void,
): Promise<Settled<Awaited<T>>> {
  let pending: Promise<Awaited<T>>;
  try {
    pending = Promise.resolve(work()) as Promise<Awaited<T>>;
  } catch (error) {
    return { ok: false, error, timedOut: false };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  try {
    const first = await Promise.race([pending.then((value) => ({ value })), late]);
    if (first !== 'late') return { ok: true, value: first.value };
  } catch (error) {
    return { ok: false, error, timedOut: false };
  } finally {
    clearTimeout(timer);
  }
  pending.then(undefined, (error: unknown) => onLate?.(error));
  return { ok: false, error: new WebhookTimeoutError(what, timeoutMs), timedOut: true };
}

/**
 * Partner code the receiver waited for (the handler, `verify`, `dedupeKey` or the dedupe store)
 * did not finish in time; the delivery was answered 500 and its claim released, so the sender
 * delivers it again. `onError` receives it.
 *
 * @example
 * ```ts
 * createWebhookHandler({
 *   on,
 *   onError: (error, event) => {
 *     if (error instanceof WebhookTimeoutError) log.warn('slow webhook handler', event?.event);
 *   },
 * });
 * ```
 */
export class WebhookTimeoutError extends PartnerError {
  /** The limit that passed, in milliseconds. */
  readonly timeoutMs: number;

  constructor(what: string, timeoutMs: number) {
    super(`${what} did not finish within ${timeoutMs} ms`);
    this.name = 'WebhookTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}
// Its own brand, as every PartnerError has: `instanceof` then holds across the ESM and CJS copies
// of the package, and a sibling error never passes for this one.
Object.defineProperty(WebhookTimeoutError, Symbol.for('partner-sdk.error.brand'), {
  value: 'partner-sdk.WebhookTimeoutError',
});
