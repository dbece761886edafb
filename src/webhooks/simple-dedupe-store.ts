/**
 * {@link SimpleDedupeStore}: the `{ has, add }` shape of a dedupe store, a set of handled keys in
 * the partner's Redis or database, and how a receiver runs it as a {@link WebhookDedupeStore}.
 *
 * @module
 */

import type { DedupeClaimResult, WebhookDedupeStore } from './dedupe';

/**
 * A dedupe store as a set of handled delivery keys: `has` asks whether a key was handled, `add`
 * records it once its handler succeeded. Each method may be async and answer through a promise.
 *
 * Within one process a delivery is never handled twice: a duplicate that arrives while the first
 * is being handled waits for it. Across replicas sharing the store, `has` then `add` is not one
 * atomic step: two replicas given the same delivery at the same moment may both run its handler.
 * Where that matters, implement the claim contract instead ({@link WebhookDedupeStore}, as
 * `partner-sdk/redis` does), which lets exactly one replica win.
 *
 * @example
 * ```ts
 * // Over a Redis client: EXISTS answers 1 for a key that was handled.
 * const handled: SimpleDedupeStore = {
 *   has: (key) => redis.exists(`webhook:${key}`),
 *   add: (key, { ttlMs }) => redis.set(`webhook:${key}`, '1', { PX: ttlMs }),
 * };
 * createWebhookHandler({
 *   on: { subscription_ended: (event) => endSubscription(event.payload.subscription_code) },
 *   dedupe: handled,
 *   verify,
 * });
 * ```
 */
export interface SimpleDedupeStore {
  /**
   * Whether the delivery named `key` was handled: `true` (or a non-zero number, as Redis's
   * `EXISTS` answers) answers the delivery 200 without running its handler. Any other answer than
   * a boolean or a number, or a rejection, fails the delivery with 500 (the sender retries) and
   * reaches `onError`.
   *
   * @example
   * ```ts
   * const seen = await store.has('subscription_ended:8f1c…:3b9a0c…');
   * ```
   */
  has(key: string): boolean | number | Promise<boolean | number>;
  /**
   * Records that the delivery named `key` was handled, to be remembered for `ttlMs` milliseconds
   * (the handler's `dedupeTtlMs`). Called only after the handler succeeded; a rejection still
   * answers 200 (the handler did its work) and reaches `onError`.
   *
   * @example
   * ```ts
   * await store.add('subscription_ended:8f1c…:3b9a0c…', { ttlMs: 7 * 24 * 3600 * 1000 });
   * ```
   */
  add(key: string, options: { ttlMs: number }): unknown;
}

/**
 * Whether `value` has the two methods of {@link SimpleDedupeStore}.
 *
 * @example
 * ```ts
 * isSimpleDedupeStore({ has: async () => false, add: async () => {} }); // true
 * ```
 */
export function isSimpleDedupeStore(value: unknown): value is SimpleDedupeStore {
  if (value === null || typeof value !== 'object') return false;
  const store = value as Record<string, unknown>;
  return typeof store.has === 'function' && typeof store.add === 'function';
}

/**
 * Runs a {@link SimpleDedupeStore} as the claim contract: a key it has is handled, any other is
 * claimed (the receiver's in-process wait keeps a second claim of one key from starting while the
 * first runs), a success adds the key, a failure leaves nothing to release.
 */
export function claimsOverSimpleStore(store: SimpleDedupeStore): WebhookDedupeStore {
  return {
    async claim(key): Promise<DedupeClaimResult> {
      const seen: unknown = await store.has(key);
      if (typeof seen !== 'boolean' && typeof seen !== 'number') {
        throw new TypeError(`the dedupe store's has answered a ${typeof seen}, not a boolean`);
      }
      return seen ? 'handled' : 'claimed';
    },
    async complete(key, { ttlMs }) {
      await store.add(key, { ttlMs });
    },
    async release() {},
  };
}
