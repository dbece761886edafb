/**
 * RedisDedupeStore against a real redis-server with each client library: the webhook engineer's
 * contract suite, the prefix and expiry of its keys, and a Redis that stops answering. Several
 * receivers in separate processes: dedupe-replicas.test.ts.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisDedupeStore, RedisStoreError } from '../../src/redis/index';
import { describeDedupeStoreContract } from '../helpers/dedupe-store-contract';
import { type Connection, libraries, sendCommand } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';

const redis = useRedisServer();

describe.each(libraries)('RedisDedupeStore over $name', (library) => {
  let shared: Connection;
  beforeAll(async () => {
    shared = await library.connect(redis.url);
  });
  afterAll(() => shared?.close());

  describeDedupeStoreContract(
    `RedisDedupeStore (${library.name})`,
    () => new RedisDedupeStore(shared.client),
  );

  it('writes every key under the prefix, each with an expiry (the lease, then the time to live)', async () => {
    const prefix = `p-${randomUUID()}:`;
    const store = new RedisDedupeStore(shared.client, { prefix });
    const owner = randomUUID();
    await store.claim('subscription_ended:req_1:abc', { leaseMs: 30_000, owner });
    const keys = (await sendCommand(shared, ['KEYS', `${prefix}*`])) as string[];
    expect(keys).toEqual([`${prefix}webhook:subscription_ended:req_1:abc`]);
    const lease = Number(await sendCommand(shared, ['PTTL', keys[0]!]));
    expect(lease).toBeGreaterThan(0);
    expect(lease).toBeLessThanOrEqual(30_000);
    await store.complete('subscription_ended:req_1:abc', { ttlMs: 600_000, owner });
    const ttl = Number(await sendCommand(shared, ['PTTL', keys[0]!]));
    expect(ttl).toBeGreaterThan(30_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });

  it('rejects with RedisStoreError when Redis does not answer in time (and undoes a claim that runs late)', async () => {
    const connection = await library.connect(redis.url);
    // Writes (scripts included) wait until the pause is lifted, which the test does itself: a
    // pause that ends by time alone could end before a busy machine even sends the claim.
    await sendCommand(shared, ['CLIENT', 'PAUSE', '60000', 'WRITE']);
    try {
      const store = new RedisDedupeStore(connection.client, { commandTimeoutMs: 150 });
      const key = `slow:${randomUUID()}`;
      const claim = store.claim(key, { leaseMs: 60_000, owner: randomUUID() });
      await expect(claim).rejects.toThrow(RedisStoreError);
      await expect(claim).rejects.toThrow(/did not answer EVALSHA within 150 ms/);
      // The claim that timed out runs late, once the pause is lifted; the store queued its undo
      // behind it on the same connection, and the redelivery's claim below comes after both, so
      // it is not held for the whole lease. Its own answer is not about time: no short limit.
      await sendCommand(shared, ['CLIENT', 'UNPAUSE']);
      const redelivery = new RedisDedupeStore(connection.client, { commandTimeoutMs: 10_000 });
      expect(await redelivery.claim(key, { leaseMs: 60_000, owner: randomUUID() })).toBe('claimed');
    } finally {
      await sendCommand(shared, ['CLIENT', 'UNPAUSE']);
      await connection.close();
    }
  });

  it('rejects with RedisStoreError when Redis is unreachable', async () => {
    const connection = await library.connect(redis.url);
    await connection.close();
    const store = new RedisDedupeStore(connection.client, { commandTimeoutMs: 300 });
    await expect(store.claim('k', { leaseMs: 1_000, owner: 'o' })).rejects.toThrow(RedisStoreError);
    await expect(store.release('k', { owner: 'o' })).rejects.toThrow(RedisStoreError);
  });
});
