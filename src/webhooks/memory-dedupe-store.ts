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

/** A key's place in the list from least to most recently used. */
interface Node {
  readonly key: string;
  entry: Entry;
  older: Node | undefined;
  newer: Node | undefined;
}

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
  // A list of its own, not a Map's insertion order: walking a Map from its start steps over every
  // entry deleted since the Map last compacted, and at the bound each call deletes one.
  readonly #nodes = new Map<string, Node>();
  #oldest: Node | undefined;
  #newest: Node | undefined;

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
    return this.#nodes.size;
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
    const node = this.#nodes.get(key);
    if (node && node.entry.expiresAt > now) {
      this.#touch(node);
      return node.entry.state === 'handled' ? 'handled' : 'in-progress';
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
    const node = this.#nodes.get(key);
    if (node?.entry.state === 'claimed' && node.entry.owner === owner) this.#remove(node);
  }

  /** Makes `node` the most recently used. */
  #touch(node: Node): void {
    if (node === this.#newest) return;
    this.#unlink(node);
    this.#append(node);
  }

  #set(key: string, entry: Entry): void {
    const node = this.#nodes.get(key);
    if (node) {
      node.entry = entry;
      this.#touch(node);
      return;
    }
    const added: Node = { key, entry, older: undefined, newer: undefined };
    this.#nodes.set(key, added);
    this.#append(added);
    if (this.#nodes.size > this.maxEntries) this.#evictOne(Date.now());
  }

  #append(node: Node): void {
    node.older = this.#newest;
    node.newer = undefined;
    if (this.#newest) this.#newest.newer = node;
    else this.#oldest = node;
    this.#newest = node;
  }

  #unlink(node: Node): void {
    if (node.older) node.older.newer = node.newer;
    else this.#oldest = node.newer;
    if (node.newer) node.newer.older = node.older;
    else this.#newest = node.older;
  }

  #remove(node: Node): void {
    this.#unlink(node);
    this.#nodes.delete(node.key);
  }

  /**
   * Drops the least recently used key, preferring one that expired, then a handled mark: dropping
   * a live claim would let a duplicate run while the first is still being handled.
   */
  #evictOne(now: number): void {
    for (let node = this.#oldest; node; node = node.newer) {
      if (node.entry.expiresAt <= now || node.entry.state === 'handled') {
        this.#remove(node);
        return;
      }
    }
    if (this.#oldest) this.#remove(this.#oldest);
  }
}

function checkDuration(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(
      `${name} must be a positive integer of milliseconds, got ${String(value)}`,
    );
  }
}
