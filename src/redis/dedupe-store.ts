/**
 * The webhook dedupe store on Redis: one key per delivery, holding either a claim (`c:<owner>`,
 * expiring with its lease) or a handled mark (`h`, expiring with its time to live). Claim and
 * release are Lua scripts, so each is atomic across every receiver sharing the Redis.
 *
 * @module
 */

import type {
  DedupeClaimOptions,
  DedupeClaimResult,
  DedupeCompleteOptions,
  DedupeReleaseOptions,
  WebhookDedupeStore,
} from '../webhooks/dedupe';
import { type Commands, connect, type RedisClient, type RedisStoreOptions, Script } from './client';
import { RedisStoreError } from './errors';

// A live value (claim or mark) answers for itself; an expired one is gone, so the key is free.
const CLAIM = new Script(`
local value = redis.call('GET', KEYS[1])
if value == 'h' then return 'handled' end
if value then return 'in-progress' end
redis.call('SET', KEYS[1], 'c:' .. ARGV[1], 'PX', ARGV[2])
return 'claimed'
`);

// Only this owner's claim goes: never another owner's, never a handled mark.
const RELEASE = new Script(`
if redis.call('GET', KEYS[1]) == 'c:' .. ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

const RESULTS: readonly string[] = ['claimed', 'handled', 'in-progress'];

/**
 * A {@link WebhookDedupeStore} on Redis, shared by every receiver (replica) of the webhooks: of
 * any number of receivers getting the same delivery at once, exactly one runs the handler; a
 * handler that fails releases its claim, so the sender's redelivery runs it; a receiver that
 * crashed mid-handler blocks the delivery only until its lease ends.
 *
 * Redis down or slow (no answer within `commandTimeoutMs`): `claim` and `release` reject with
 * {@link RedisStoreError}, and the receiver answers 500, so the sender delivers again later and
 * nothing is lost; nothing runs the handler without a claim.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { RedisDedupeStore } from 'partner-sdk/redis';
 * import { createWebhookHandler, secretVerifier } from 'partner-sdk/webhooks';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const handler = createWebhookHandler({
 *   on: { subscription_ended: (event) => endSubscription(event.payload.subscription_code) },
 *   dedupe: new RedisDedupeStore(redis, { prefix: 'billing:partner:' }),
 *   verify: secretVerifier({ secret: process.env.WEBHOOK_TOKEN, query: 'token' }),
 * });
 * ```
 */
export class RedisDedupeStore implements WebhookDedupeStore {
  readonly #commands: Commands;
  readonly #prefix: string;

  constructor(client: RedisClient, options: RedisStoreOptions = {}) {
    const { commands, prefix } = connect(client, options);
    this.#commands = commands;
    this.#prefix = `${prefix}webhook:`;
  }

  /**
   * Claims a delivery for `owner` unless it was handled or another claim is live (see
   * {@link WebhookDedupeStore.claim}); the webhook handler calls it.
   *
   * @example
   * ```ts
   * await store.claim(key, { leaseMs: 65_000, owner: crypto.randomUUID() }); // 'claimed'
   * ```
   */
  async claim(key: string, options: DedupeClaimOptions): Promise<DedupeClaimResult> {
    const stored = this.#prefix + key;
    let result: unknown;
    try {
      result = await this.#commands.eval(
        CLAIM,
        [stored],
        [options.owner, String(Math.ceil(options.leaseMs))],
      );
    } catch (error) {
      // The receiver answers 500 and the sender redelivers; but a claim that timed out here may
      // still run there, late, and hold the delivery for its whole lease. Undo it in the background
      // (sent whole: a restarted server may not know the script), queued behind the claim.
      this.#commands
        .send(['EVAL', RELEASE.source, '1', stored, options.owner])
        .catch(() => undefined);
      throw error;
    }
    if (typeof result !== 'string' || !RESULTS.includes(result)) {
      throw new RedisStoreError('Redis answered the webhook claim with an unexpected reply');
    }
    return result as DedupeClaimResult;
  }

  /**
   * Marks a delivery handled for `ttlMs` (see {@link WebhookDedupeStore.complete}).
   *
   * @example
   * ```ts
   * await store.complete(key, { ttlMs: 7 * 24 * 3600 * 1000, owner });
   * ```
   */
  async complete(key: string, options: DedupeCompleteOptions): Promise<void> {
    await this.#commands.send([
      'SET',
      this.#prefix + key,
      'h',
      'PX',
      String(Math.ceil(options.ttlMs)),
    ]);
  }

  /**
   * Removes `owner`'s claim on a delivery, so its redelivery runs the handler (see
   * {@link WebhookDedupeStore.release}).
   *
   * @example
   * ```ts
   * await store.release(key, { owner });
   * ```
   */
  async release(key: string, options: DedupeReleaseOptions): Promise<void> {
    await this.#commands.eval(RELEASE, [this.#prefix + key], [options.owner]);
  }
}
