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
import { type HeapItem, MinHeap } from './min-heap';
import { type Linked, RecencyList } from './recency-list';

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

/** A key, in the list of its kind from least to most recently used. */
interface Node extends Linked<Node>, HeapItem {
  readonly key: string;
  entry: Entry;
  /** When it was last used, on the store's own count: the larger, the more recent. */
  used: number;
  /** Its list; none once its claim is known to have expired (it is then in `#expired`). */
  list: RecencyList<Node> | undefined;
  /** The heap it is in: `#leases` while a claim in `#claims`, `#expired` after; none if handled. */
  heap: MinHeap<Node> | undefined;
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
  readonly #nodes = new Map<string, Node>();
  // Live claims, handled marks, and the claims whose lease ended, apart: making room takes the
  // least recently used expired claim or handled mark, and a live claim only when nothing else is
  // left, without walking over live claims to find them.
  readonly #claims = new RecencyList<Node>();
  readonly #handled = new RecencyList<Node>();
  /** Every claim in `#claims`, by when its lease ends. */
  readonly #leases = new MinHeap<Node>((node) => node.entry.expiresAt);
  /** The claims taken out of `#claims` once their lease ended, by when they were last used. */
  readonly #expired = new MinHeap<Node>((node) => node.used);
  #uses = 0;

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

  /** Makes `node`, whose entry is live, the most recently used. */
  #touch(node: Node): void {
    const list = node.list;
    if (!list) return;
    list.unlink(node);
    node.used = ++this.#uses;
    list.append(node);
  }

  #set(key: string, entry: Entry): void {
    const node = this.#nodes.get(key);
    if (node) {
      this.#detach(node);
      node.entry = entry;
      this.#place(node);
      return;
    }
    const added: Node = {
      key,
      entry,
      used: 0,
      list: undefined,
      heap: undefined,
      heapIndex: -1,
      older: undefined,
      newer: undefined,
    };
    this.#nodes.set(key, added);
    this.#place(added);
    if (this.#nodes.size > this.maxEntries) this.#evictOne(Date.now());
  }

  /** Puts `node`, just given its entry, last in the list of its kind. */
  #place(node: Node): void {
    node.used = ++this.#uses;
    const claimed = node.entry.state === 'claimed';
    node.list = claimed ? this.#claims : this.#handled;
    node.list.append(node);
    if (claimed) this.#enter(node, this.#leases);
  }

  #enter(node: Node, heap: MinHeap<Node>): void {
    node.heap = heap;
    heap.push(node);
  }

  /** Takes `node` out of its list and its heap. */
  #detach(node: Node): void {
    node.list?.unlink(node);
    node.list = undefined;
    node.heap?.remove(node);
    node.heap = undefined;
  }

  #remove(node: Node): void {
    this.#detach(node);
    this.#nodes.delete(node.key);
  }

  /**
   * Drops the least recently used key, preferring an expired claim or a handled mark: dropping a
   * live claim would let a duplicate run while the first is still being handled.
   */
  #evictOne(now: number): void {
    this.#takeExpiredClaims(now);
    const handled = this.#handled.oldest;
    const expired = this.#expired.peek();
    if (handled && (!expired || handled.used < expired.used)) this.#remove(handled);
    else if (expired) this.#remove(expired);
    else if (this.#claims.oldest) this.#remove(this.#claims.oldest);
  }

  /** Moves every claim whose lease ended by `now` from `#claims` to `#expired`. */
  #takeExpiredClaims(now: number): void {
    for (let next = this.#leases.peek(); next; next = this.#leases.peek()) {
      if (next.entry.expiresAt > now) return;
      this.#detach(next);
      this.#enter(next, this.#expired);
    }
  }
}

function checkDuration(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(
      `${name} must be a positive integer of milliseconds, got ${String(value)}`,
    );
  }
}
