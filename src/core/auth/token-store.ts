/**
 * The contract of a shared client-token cache: how several processes (replicas of one backend)
 * log in once for all of them instead of once each. `partner-sdk/redis` implements it on Redis;
 * without one, each client logs in on its own (single-flight within the process).
 *
 * @module
 */

/** What {@link ClientTokenStore.obtain} is asked: whose token, how to log in, which token was refused. */
export interface ClientTokenRequest {
  /**
   * Names the token: the API base URL and the client id (never the secret), so clients of other
   * services or accounts sharing one store never see each other's tokens.
   */
  readonly key: string;
  /**
   * Logs in (`POST /auth`) from this process and resolves to the new client token. Call it at most
   * once per `obtain`; its failure (refused credentials, the service down) is the caller's and
   * must reject `obtain` as it is.
   *
   * @example
   * ```ts
   * const token = await request.login(); // then store it for the other processes
   * ```
   */
  readonly login: () => Promise<string>;
  /**
   * The token the service just refused with a 401, when this is a renewal: the store forgets it
   * only if it is still the stored one (another process may already have stored a newer one, which
   * is then returned without logging in again), and never returns it.
   */
  readonly refused?: string | undefined;
  /**
   * Writes a warning through the client's logger (for a store that falls back to `login`).
   *
   * @example
   * ```ts
   * request.warn('token store unreachable; logging in from this process');
   * ```
   */
  readonly warn: (message: string) => void;
}

/**
 * A client-token cache shared by several processes: one login for the whole fleet. Pass one as
 * `tokenStore` with `clientId`/`clientSecret`; `partner-sdk/redis`'s `RedisTokenStore` is one.
 *
 * The client calls {@link ClientTokenStore.obtain} when it has no token yet and after the service
 * refused its token; between the two it keeps the token in memory, so a call costs the store
 * nothing. An implementation returns the stored token, or logs in once for every process (a lock,
 * so that processes starting together still log in once) and stores the result, with an expiry.
 *
 * It must never make a call fail because of the store: when the store is down or slow, it logs in
 * locally (`request.login()`) and warns. The client also falls back to a local login if `obtain`
 * rejects without its `login` having failed, or has not settled within the client's `timeout` (a
 * login `obtain` already started is then waited for, never repeated).
 *
 * @example
 * ```ts
 * import { PartnerClient } from 'partner-sdk';
 * import { RedisTokenStore } from 'partner-sdk/redis';
 *
 * const client = new PartnerClient({
 *   clientId: process.env.PARTNER_CLIENT_ID,
 *   clientSecret: process.env.PARTNER_CLIENT_SECRET,
 *   tokenStore: new RedisTokenStore(redis),
 * });
 * ```
 */
export interface ClientTokenStore {
  /**
   * Resolves to the client token every process should use now (never `request.refused`),
   * logging in through `request.login` only when no usable token is stored. A token no HTTP
   * header can carry (a line break, NUL, a character beyond Latin-1) counts as none: the client
   * warns (never quoting it) and logs in from its own process.
   *
   * @example
   * ```ts
   * const token = await store.obtain({ key: 'https://api.example.com/api/v1 client-1', login, warn: console.warn });
   * ```
   */
  obtain(request: ClientTokenRequest): Promise<string>;
}
