/**
 * The contract of the store where a webhook receiver claims a delivery before handling it, so that
 * of every receiver sharing the store exactly one runs the partner's code for one delivery, and the
 * key that names a delivery.
 *
 * @module
 */

import { cutText } from '../shared/cut-text';
import { canonicalJson } from './canonical-json';
import type { WebhookEvent } from './events';
import type { MemoryDedupeStore } from './memory-dedupe-store';

/**
 * What {@link WebhookDedupeStore.claim} found for a delivery key:
 *
 * - `'claimed'`: nobody had handled the delivery nor held a live claim on it; the caller now holds
 *   the claim and runs the handler;
 * - `'handled'`: the delivery was handled already (its handled mark has not expired); the receiver
 *   answers 200 as a duplicate without running anything;
 * - `'in-progress'`: another caller holds a claim whose lease has not expired; the receiver answers
 *   503 with `Retry-After`, so the sender delivers again later and nothing is lost.
 */
export type DedupeClaimResult = 'claimed' | 'handled' | 'in-progress';

/** The arguments of {@link WebhookDedupeStore.claim} besides the key. */
export interface DedupeClaimOptions {
  /**
   * How long the claim lasts, in milliseconds (a positive integer). Past it, the claim counts as
   * abandoned (its receiver crashed) and the next `claim` of the key wins.
   */
  leaseMs: number;
  /** Who claims: a fresh random id per attempt, to pass again to `complete` and `release`. */
  owner: string;
}

/** The arguments of {@link WebhookDedupeStore.complete} besides the key. */
export interface DedupeCompleteOptions {
  /** How long to remember that the delivery was handled, in milliseconds (a positive integer). */
  ttlMs: number;
  /** The `owner` the claim was made with. */
  owner: string;
}

/** The arguments of {@link WebhookDedupeStore.release} besides the key. */
export interface DedupeReleaseOptions {
  /** The `owner` the claim was made with: only a claim of this owner is removed. */
  owner: string;
}

/**
 * The store where receivers claim deliveries, shared by every receiver that should handle each
 * delivery once (several replicas, restarts): {@link MemoryDedupeStore} for one process,
 * `partner-sdk/redis` for a fleet, or your own over a database. Every key holds one of three states:
 * nothing, a claim (`owner`, lease expiry) or a handled mark (expiry).
 *
 * For each delivery with a key, the receiver calls `claim`; if it gets `'claimed'` it runs the
 * handler, then calls `complete` when the handler succeeded or `release` when it failed or timed out.
 *
 * Each method must be atomic with respect to every other call on the same key, from any process:
 * of any number of concurrent `claim`s of a free key exactly one gets `'claimed'`. A method that
 * rejects (the store is down) makes the receiver answer 500 (for `claim` and `release`), so the
 * sender delivers again; a `complete` that rejects still answers 200 (the handler did its work) and
 * the key stays claimed until its lease ends. Every rejection reaches `onError`.
 *
 * @example
 * ```ts
 * // A sketch over a SQL table with a unique key (the same three steps `partner-sdk/redis` takes).
 * const store: WebhookDedupeStore = {
 *   async claim(key, { leaseMs, owner }) {
 *     return db.transaction(async (tx) => {
 *       const row = await tx.selectForUpdate('webhook_keys', key);
 *       if (row && row.expires_at > Date.now()) return row.handled ? 'handled' : 'in-progress';
 *       await tx.upsert('webhook_keys', { key, owner, handled: false, expires_at: Date.now() + leaseMs });
 *       return 'claimed';
 *     });
 *   },
 *   async complete(key, { ttlMs }) {
 *     await db.upsert('webhook_keys', { key, owner: null, handled: true, expires_at: Date.now() + ttlMs });
 *   },
 *   async release(key, { owner }) {
 *     await db.delete('webhook_keys', { key, owner, handled: false });
 *   },
 * };
 * createWebhookHandler({
 *   on: { subscription_ended: (event) => endSubscription(event.payload.subscription_code) },
 *   dedupe: store,
 *   verify,
 * });
 * ```
 */
export interface WebhookDedupeStore {
  /**
   * Atomically: if `key` holds an unexpired handled mark, answers `'handled'`; if it holds a claim
   * whose lease has not ended (whoever its owner), answers `'in-progress'`; otherwise (nothing, an
   * expired claim, an expired mark) records a claim of `owner` lasting `leaseMs` and answers
   * `'claimed'`. Any other answer counts as a failure of the store.
   *
   * @example
   * ```ts
   * const owner = crypto.randomUUID();
   * if ((await store.claim(key, { leaseMs: 65_000, owner })) === 'claimed') await handle(event);
   * ```
   */
  claim(key: string, options: DedupeClaimOptions): Promise<DedupeClaimResult>;
  /**
   * Records that the delivery was handled, for `ttlMs`, whatever `key` held (a claim of this or of
   * another owner, or nothing); later `claim`s answer `'handled'` until it expires.
   *
   * @example
   * ```ts
   * await store.complete(key, { ttlMs: 7 * 24 * 3600 * 1000, owner });
   * ```
   */
  complete(key: string, options: DedupeCompleteOptions): Promise<void>;
  /**
   * Removes the claim on `key` if `owner` holds it, so the next `claim` (the sender's redelivery)
   * wins at once; leaves anything else untouched: another owner's claim, a handled mark.
   *
   * @example
   * ```ts
   * await store.release(key, { owner }); // the handler failed: let the redelivery run it
   * ```
   */
  release(key: string, options: DedupeReleaseOptions): Promise<void>;
}

const MAX_NAME_IN_KEY = 64;

/**
 * The default delivery key: `<event>:<request_id>:<sha256>`, where the last part is the SHA-256 (hex)
 * of the event's canonical JSON (keys sorted, no white space), so the same delivery gets the same
 * key however it was serialised, and two different events never share one, even under one
 * `request_id` (the spec calls it the tracking id of an API call, which may emit several events).
 * The event name and `request_id` are only there to make keys readable (cut at 64 characters; the
 * digest covers them whole); an event without a `request_id` has an empty middle part and is deduped
 * on its content alone. Uses WebCrypto (`crypto.subtle`), available on Node.js, Bun, Deno and edge
 * runtimes.
 *
 * @example
 * ```ts
 * await defaultDedupeKey(event); // 'subscription_ended:8f1c…:3b9a0c…'
 * ```
 */
export async function defaultDedupeKey(event: WebhookEvent): Promise<string> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(canonicalJson(event)),
  );
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join(
    '',
  );
  const name = cutText(String(event.event), MAX_NAME_IN_KEY);
  const requestId = cutText(event.metadata?.request_id ?? '', MAX_NAME_IN_KEY);
  return `${name}:${requestId}:${hex}`;
}

/**
 * Whether `value` has the three methods of the {@link WebhookDedupeStore} contract.
 *
 * @example
 * ```ts
 * isDedupeStore({ has: async () => false, add: async () => {} }); // false: a SimpleDedupeStore
 * ```
 */
export function isDedupeStore(value: unknown): value is WebhookDedupeStore {
  if (value === null || typeof value !== 'object') return false;
  const store = value as Record<string, unknown>;
  return (
    typeof store.claim === 'function' &&
    typeof store.complete === 'function' &&
    typeof store.release === 'function'
  );
}
