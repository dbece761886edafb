/**
 * {@link MemoryDedupeStore}: the {@link WebhookDedupeStore} contract in one process's memory, bounded
 * in size, every claim and handled mark with an expiry.
 *
 * @module
 */

import type {
  DedupeClaimOptions,
  DedupeClaimResult,
  DedupeCompleteOptions,
  DedupeReleaseOptions,
  WebhookDedupeStore,
} from './dedupe';

/** Options of {@link MemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /**
   * How many keys to keep, a positive whole number (another value throws a `RangeError`); the
   * least recently used go first, so a redelivery arriving after `maxEntries` other deliveries runs
   * its handler again: keep room for every delivery the sender may still send again. Default
   * 10,000.
   */
  maxEntries?: number;
}

type Entry =
  | { readonly state: 'claimed'; readonly owner: string; readonly expiresAt: number }
  | { readonly state: 'handled'; readonly expiresAt: number };

/**
 * The in-memory store that `dedupe: true` uses: at most `maxEntries` keys (default 10,000), the
 * least recently used expired entry or handled mark dropped first (a live claim only when nothing
 * else is left), each claim and handled mark forgotten once its lease or time to live ends. It lives in one process and is
 * lost on restart, so it catches the redeliveries of a sender's retries to this process; for several
 * replicas or restarts, pass a shared {@link WebhookDedupeStore} (`partner-sdk/redis`).
 *
 * Each method runs without awaiting anything, so calls on one key never interleave.
 *
 * @example
 * ```ts
 * const handler = createWebhookHandler({
 *   on: { bank_account_updated: syncBankAccount },
 *   dedupe: new MemoryDedupeStore({ maxEntries: 50_000 }),
 *   verify,
 * });
 * ```
 */
export class MemoryDedupeStore implements WebhookDedupeStore {
  /** The most keys this store keeps. */
  readonly maxEntries: number;
  // A Map iterates in insertion order: re-inserting a key on use keeps the least recent first.
  readonly #entries = new Map<string, Entry>();

  constructor(options: MemoryDedupeStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError('MemoryDedupeStore: the options must be an object.');
    }
    const maxEntries = options.maxEntries ?? 10_000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${String(maxEntries)}`);
    }
    this.maxEntries = maxEntries;
  }

  /**
   * How many keys the store holds now, expired ones not yet dropped included (never more than
   * `maxEntries`).
   *
   * @example
   * ```ts
   * console.log(store.size <= store.maxEntries); // true
   * ```
   */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Claims `key` for `owner` unless it is handled or claimed by a live lease (see
   * {@link WebhookDedupeStore.claim}).
   *
   * @example
   * ```ts
   * await store.claim('subscription_ended:req_1:3b9a…', { leaseMs: 65_000, owner: crypto.randomUUID() });
   * ```
   */
  async claim(key: string, { leaseMs, owner }: DedupeClaimOptions): Promise<DedupeClaimResult> {
    checkDuration('leaseMs', leaseMs);
    const now = Date.now();
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt > now) {
      this.#touch(key, entry);
      return entry.state === 'handled' ? 'handled' : 'in-progress';
    }
    this.#set(key, { state: 'claimed', owner, expiresAt: now + leaseMs });
    return 'claimed';
  }

  /**
   * Marks `key` handled for `ttlMs` (see {@link WebhookDedupeStore.complete}).
   *
   * @example
   * ```ts
   * await store.complete(key, { ttlMs: 7 * 24 * 3600 * 1000, owner });
   * ```
   */
  async complete(key: string, { ttlMs }: DedupeCompleteOptions): Promise<void> {
    checkDuration('ttlMs', ttlMs);
    this.#set(key, { state: 'handled', expiresAt: Date.now() + ttlMs });
  }

  /**
   * Removes `owner`'s claim on `key`, and nothing else (see {@link WebhookDedupeStore.release}).
   *
   * @example
   * ```ts
   * await store.release(key, { owner });
   * ```
   */
  async release(key: string, { owner }: DedupeReleaseOptions): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry?.state === 'claimed' && entry.owner === owner) this.#entries.delete(key);
  }

  #touch(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
  }

  #set(key: string, entry: Entry): void {
    this.#touch(key, entry);
    if (this.#entries.size > this.maxEntries) this.#evictOne(Date.now());
  }

  /**
   * Drops the least recently used key, preferring one that expired, then a handled mark: dropping
   * a live claim would let a duplicate run while the first is still being handled.
   */
  #evictOne(now: number): void {
    let firstHandled: string | undefined;
    let first: string | undefined;
    for (const [key, entry] of this.#entries) {
      first ??= key;
      if (entry.expiresAt <= now) {
        this.#entries.delete(key);
        return;
      }
      if (entry.state === 'handled') {
        firstHandled = key;
        break;
      }
    }
    const victim = firstHandled ?? first;
    if (victim !== undefined) this.#entries.delete(victim);
  }
}

function checkDuration(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(
      `${name} must be a positive integer of milliseconds, got ${String(value)}`,
    );
  }
}
