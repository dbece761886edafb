/**
 * Where a webhook handler remembers the deliveries it has already handled, so that a redelivery
 * is acknowledged without running the partner's code twice.
 *
 * @module
 */

import type { WebhookEvent } from './events';

/**
 * A store of handled delivery keys. `createWebhookHandler` asks `has(key)` before running a
 * handler and calls `add(key)` only after the handler succeeded. Back it with Redis, a database
 * table with a unique key, or anything shared by every instance of the receiver; give keys an
 * expiry there if the store should not grow forever.
 *
 * @example
 * ```ts
 * const redisStore: WebhookDedupeStore = {
 *   has: async (key) => (await redis.exists(`webhook:${key}`)) === 1,
 *   add: async (key) => {
 *     await redis.set(`webhook:${key}`, '1', { EX: 7 * 24 * 3600 });
 *   },
 * };
 * createWebhookHandler({ on: { subscription_ended: endSubscription }, dedupe: redisStore });
 * ```
 */
export interface WebhookDedupeStore {
  /** Whether a delivery with this key was already handled. */
  has(key: string): boolean | Promise<boolean>;
  /** Remembers that the delivery with this key was handled. */
  add(key: string): void | Promise<void>;
}

/** Options of {@link MemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /** How many keys to keep; the least recently seen go first. Default 10,000. */
  maxEntries?: number;
}

/**
 * The in-memory store that `dedupe: true` uses: at most `maxEntries` keys (default 10,000), the
 * least recently seen dropped first. It lives in one process and is lost on restart, so it
 * catches the quick redeliveries of a sender's retries; for several instances or restarts, pass a
 * shared {@link WebhookDedupeStore}.
 *
 * @example
 * ```ts
 * const handler = createWebhookHandler({
 *   on: { bank_account_updated: syncBankAccount },
 *   dedupe: new MemoryDedupeStore({ maxEntries: 50_000 }),
 * });
 * ```
 */
export class MemoryDedupeStore implements WebhookDedupeStore {
  /** The most keys this store keeps. */
  readonly maxEntries: number;
  // A Map iterates in insertion order: re-inserting a key on use keeps the oldest first.
  readonly #keys = new Map<string, true>();

  constructor(options: MemoryDedupeStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 10_000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
    }
    this.maxEntries = maxEntries;
  }

  /**
   * How many keys the store holds now (never more than `maxEntries`).
   *
   * @example
   * ```ts
   * console.log(store.size <= store.maxEntries); // true
   * ```
   */
  get size(): number {
    return this.#keys.size;
  }

  /**
   * Whether `key` was added and not yet dropped; a hit counts as a use.
   *
   * @example
   * ```ts
   * store.has('subscription_ended:req_1'); // false until added
   * ```
   */
  has(key: string): boolean {
    if (!this.#keys.has(key)) return false;
    this.#keys.delete(key);
    this.#keys.set(key, true);
    return true;
  }

  /**
   * Remembers `key`, dropping the least recently seen key when full.
   *
   * @example
   * ```ts
   * store.add('subscription_ended:req_1');
   * ```
   */
  add(key: string): void {
    this.#keys.delete(key);
    this.#keys.set(key, true);
    while (this.#keys.size > this.maxEntries) {
      const oldest = this.#keys.keys().next().value;
      if (oldest === undefined) break;
      this.#keys.delete(oldest);
    }
  }
}

/**
 * The default delivery key: the event name and `metadata.request_id`. The spec calls `request_id`
 * a tracking id of the API call, not an event id, and one call may emit several events under it,
 * so the name is part of the key. Events without a `request_id` get no key and are never deduped.
 *
 * @example
 * ```ts
 * defaultDedupeKey(event); // 'subscription_ended:8f1c…' or undefined
 * ```
 */
export function defaultDedupeKey(event: WebhookEvent): string | undefined {
  const requestId = event.metadata?.request_id;
  return requestId ? `${event.event}:${requestId}` : undefined;
}
