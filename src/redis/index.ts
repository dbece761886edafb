/**
 * partner-sdk/redis: the SDK's shared state on Redis, for backends that run as several processes
 * (replicas behind a load balancer, workers, restarts): the client-token cache, so the fleet
 * logs in once; the webhook dedupe store, so each delivery is handled once by the fleet; and the
 * bulk-job journal, so a job resumes on any machine; and the fleet-wide pace, one request budget
 * and one pause after a 429 for every process using the same credentials.
 * They work over the Redis client the application already has, from the `redis` or the `ioredis`
 * package (optional peers: install the one you use).
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { PartnerClient } from 'partner-sdk';
 * import { RedisTokenStore } from 'partner-sdk/redis';
 *
 * const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
 * const client = new PartnerClient({ tokenStore: new RedisTokenStore(redis) });
 * ```
 *
 * @module partner-sdk/redis
 */

export type { IoredisClient, NodeRedisClient, RedisClient, RedisStoreOptions } from './client';
export { RedisDedupeStore } from './dedupe-store';
export { RedisStoreError } from './errors';
export { type FleetPaceOptions, fleetPace } from './fleet-pace';
export { RedisJournalStore, type RedisJournalStoreOptions } from './journal-store';
export { RedisTokenStore, type RedisTokenStoreOptions } from './token-store';
