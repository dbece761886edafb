/**
 * The one error the Redis stores throw of their own.
 *
 * @module
 */

import { PartnerError } from '../core/errors';

/**
 * Redis did not answer a store's command: the connection is down, the command failed, or it took
 * longer than the store's `commandTimeoutMs`. The message names the command, never its keys or
 * values; `cause` keeps the client library's own error.
 *
 * What it means for each store: a webhook receiver answers 5xx, so the sender delivers again
 * later; a bulk job stops and can be resumed with the same journal; the token store never throws
 * it (the client logs in from its own process instead).
 *
 * @example
 * ```ts
 * import { RedisStoreError } from 'partner-sdk/redis';
 *
 * try {
 *   await job;
 * } catch (error) {
 *   if (error instanceof RedisStoreError) console.error('Redis is down; run the job again later');
 * }
 * ```
 */
export class RedisStoreError extends PartnerError {}
// Its own brand: without one, `instanceof RedisStoreError` would match every PartnerError.
Object.defineProperty(RedisStoreError, Symbol.for('partner-sdk.error.brand'), {
  value: 'partner-sdk.RedisStoreError',
});
