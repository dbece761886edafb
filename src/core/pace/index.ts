/**
 * The contract of a request pace shared beyond one client: a budget of requests that several
 * processes using the same credentials draw from, and a pause that a 429 seen by any of them holds
 * for all. `partner-sdk/redis`'s `fleetPace` implements it on Redis. Without one (the default)
 * nothing here runs: the attempt loop checks for it once per attempt and does nothing else.
 *
 * @module
 */

/** What a client tells a {@link RequestPace} about itself when it is built. */
export interface PaceClient {
  /**
   * Names the budget: the API base URL and the client id (or the client token when there is no id).
   * It may hold a secret, so an implementation hashes it before it leaves the process.
   */
  readonly key: string;
  /**
   * Writes a warning through the client's logger (for a pace that falls back to a local one).
   *
   * @example
   * ```ts
   * client.warn('fleet pace unavailable; pacing this process on its own');
   * ```
   */
  readonly warn: (message: string) => void;
}

/** A {@link RequestPace} bound to one client's budget. */
export interface BoundPace {
  /**
   * Resolves when the next attempt may be sent; rejects with the signal's reason when it aborts.
   *
   * @example
   * ```ts
   * await pace.acquire(signal); // then send
   * ```
   */
  acquire(signal: AbortSignal | undefined): Promise<void>;
  /**
   * The service answered an attempt with 429, asking for `retryAfterMs` (when it said).
   *
   * @example
   * ```ts
   * pace.refused(1_000);
   * ```
   */
  refused(retryAfterMs: number | undefined): void;
}

/**
 * A request budget shared by every process using the same credentials: pass one as the client's
 * `pace` option. `partner-sdk/redis`'s `fleetPace` is one.
 *
 * @example
 * ```ts
 * import { PartnerClient } from 'partner-sdk';
 * import { fleetPace } from 'partner-sdk/redis';
 *
 * const client = new PartnerClient({ pace: fleetPace(redis, { requestsPerSecond: 50 }) });
 * ```
 */
export interface RequestPace {
  /**
   * Binds the pace to one client's budget; called once as the client is built.
   *
   * @example
   * ```ts
   * const bound = pace.forClient({ key: 'https://partner.example.com/api/v1 my-id', warn });
   * ```
   */
  forClient(client: PaceClient): BoundPace;
}
