/**
 * The shared client-token cache on Redis: one login for every process that shares it.
 *
 * Keys (under the prefix, the client's base URL and id between braces so that both land in one
 * Redis Cluster slot): `{token:…}` holds the token, `{token:…}:lock` the login lock. A process
 * without a token runs one script that returns the stored token or takes the lock; the lock's
 * holder logs in and stores the token (releasing the lock in the same script); the others poll
 * until the token appears, bounded by `loginWaitMs`, then log in themselves. A refused token is
 * deleted only while it is still the stored one, so a process that was refused picks up the token
 * another process already renewed.
 *
 * @module
 */

import type { ClientTokenRequest, ClientTokenStore } from '../core/auth/token-store';
import {
  type Commands,
  connect,
  positiveMs,
  type RedisClient,
  type RedisStoreOptions,
  Script,
} from './client';

/** Options of {@link RedisTokenStore}. */
export interface RedisTokenStoreOptions extends RedisStoreOptions {
  /**
   * Milliseconds a stored token lives in Redis. The spec does not say how long a client token
   * lasts; a token the service refuses is replaced at once whatever this says, so this only bounds
   * how old a token a newly started process picks up. Default 3 600 000 (one hour).
   */
  tokenTtlMs?: number | undefined;
  /**
   * Milliseconds a process waits for another one's login before logging in itself; also how long
   * the login lock lives if its holder dies. Default 10 000.
   */
  loginWaitMs?: number | undefined;
}

// Returns {1, token} for a usable stored token, {2, ''} when this caller took the lock, {0, ''}
// when another holds it. ARGV[3] is the refused token ('' when none): deleted only if still stored.
const TAKE = new Script(`
local token = redis.call('GET', KEYS[1])
if token and token == ARGV[3] then
  redis.call('DEL', KEYS[1])
  token = false
end
if token then return {1, token} end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {2, ''} end
return {0, ''}
`);

// Stores the new token and releases the lock, only while this caller holds the lock: a script
// that runs late (Redis slow, or restarted in between) then never stores a token that may since
// have been refused.
const PUBLISH = new Script(`
if redis.call('GET', KEYS[2]) ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('DEL', KEYS[2])
return 1
`);

// Releases the lock if this caller still holds it (after a failed login).
const RELEASE = new Script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

/** How often a waiting process looks for the token another one is logging in for. */
const POLL_MS = 25;

// Unref'd: a call waiting for the login keeps the process alive by its own bound, and one that
// gave up must not leave this wait holding a finished script open.
const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    (setTimeout(resolve, ms) as { unref?: () => void }).unref?.();
  });

/**
 * A {@link ClientTokenStore} on Redis: every client using it (on any number of processes) shares
 * one client token, logs in once when none is stored (a lock makes processes starting together
 * log in once), and after the service refuses the token renews it once for all of them.
 *
 * Redis down or slow (no answer within `commandTimeoutMs`): the client logs in from its own
 * process and logs a warning; a call never fails because of the cache.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis'; // or: import { Redis } from 'ioredis'; new Redis(url)
 * import { PartnerClient } from 'partner-sdk';
 * import { RedisTokenStore } from 'partner-sdk/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const client = new PartnerClient({
 *   clientId: process.env.PARTNER_API_CLIENT_ID,
 *   clientSecret: process.env.PARTNER_API_CLIENT_SECRET,
 *   tokenStore: new RedisTokenStore(redis, { prefix: 'billing:partner:' }),
 * });
 * ```
 */
export class RedisTokenStore implements ClientTokenStore {
  readonly #commands: Commands;
  readonly #prefix: string;
  readonly #tokenTtlMs: number;
  readonly #loginWaitMs: number;

  constructor(client: RedisClient, options: RedisTokenStoreOptions = {}) {
    const { commands, prefix } = connect(client, options);
    this.#commands = commands;
    this.#prefix = prefix;
    this.#tokenTtlMs = positiveMs('tokenTtlMs', options.tokenTtlMs ?? 3_600_000);
    this.#loginWaitMs = positiveMs('loginWaitMs', options.loginWaitMs ?? 10_000);
  }

  /**
   * The stored token, or a login shared with every process (see {@link ClientTokenStore.obtain});
   * the client calls it, not the application.
   *
   * @example
   * ```ts
   * const token = await store.obtain({ key, login: () => logIn(), warn: console.warn });
   * ```
   */
  async obtain(request: ClientTokenRequest): Promise<string> {
    const { login, warn } = request;
    const tokenKey = `${this.#prefix}{token:${request.key}}`;
    const keys = [tokenKey, `${tokenKey}:lock`];
    const lockId = crypto.randomUUID();
    const deadline = Date.now() + this.#loginWaitMs;
    const take = [lockId, String(Math.ceil(this.#loginWaitMs)), request.refused ?? ''];
    const publish = (token: string) =>
      this.#commands.eval(PUBLISH, keys, [token, String(Math.ceil(this.#tokenTtlMs)), lockId]);
    // A login from this process alone (Redis failed, or the wait ran out) is not stored: only the
    // lock's holder stores a token. But a lock script that timed out here may yet run there and
    // take the lock: release it (in the background, only if it is this caller's), so that the
    // others do not wait behind it.
    const alone = async () => {
      // Sent whole (EVAL): if it too runs late, a restarted server may no longer know the script.
      this.#commands.send(['EVAL', RELEASE.source, '1', keys[1]!, lockId]).catch(() => undefined);
      return login();
    };
    try {
      for (;;) {
        const [kind, token] = reply(await this.#commands.eval(TAKE, keys, take));
        if (kind === 1 && token) return token;
        if (kind === 2) break;
        if (Date.now() >= deadline) {
          warn(
            `no shared client token after waiting ${this.#loginWaitMs} ms for another process's login; logging in from this process`,
          );
          return alone();
        }
        await sleep(POLL_MS);
      }
    } catch (error) {
      warn(`Redis token store unavailable (${messageOf(error)}); logging in from this process`);
      return alone();
    }
    // This process holds the lock: log in for everyone.
    let token: string;
    try {
      token = await login();
    } catch (error) {
      await this.#commands.eval(RELEASE, keys.slice(1), [lockId]).catch(() => undefined);
      throw error;
    }
    try {
      await publish(token);
    } catch (error) {
      warn(`could not share the new client token through Redis (${messageOf(error)})`);
    }
    return token;
  }
}

function reply(value: unknown): [number, string] {
  if (!Array.isArray(value)) throw new TypeError('unexpected reply from the token script');
  return [Number(value[0]), String(value[1] ?? '')];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
