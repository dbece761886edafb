/**
 * RedisJournalStore against a real redis-server with each client library: the bulk engineer's
 * journal contract suite, the expiry of its keys, and a Redis that does not answer.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisJournalStore, RedisStoreError } from '../../src/redis/index';
import { describeJournalStoreContract } from '../helpers/journal-store-contract';
import { type Connection, libraries, sendCommand } from './support/libraries';
import { type RedisServer, startRedisServer } from './support/redis-server';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 20_000);
afterAll(() => redis?.close());

describe.each(libraries)('RedisJournalStore over $name', (library) => {
  let shared: Connection;
  beforeAll(async () => {
    shared = await library.connect(redis.url);
  });
  afterAll(() => shared?.close());

  describeJournalStoreContract(`RedisJournalStore (${library.name})`, async () => {
    const prefix = `j-${randomUUID()}:`;
    return { open: async () => new RedisJournalStore(shared.client, { prefix }) };
  });

  it("gives each job's journal an expiry, renewed by every put", async () => {
    const prefix = `j-${randomUUID()}:`;
    const store = new RedisJournalStore(shared.client, { prefix, ttlMs: 60_000 });
    const at = new Date().toISOString();
    await store.put({ job: 'cohort-1', key: 'trx_1', state: 'intent', at });
    const keys = (await sendCommand(shared, ['KEYS', `${prefix}*`])) as string[];
    expect(keys).toEqual([`${prefix}journal:{cohort-1}`]);
    const ttl = Number(await sendCommand(shared, ['PTTL', keys[0]!]));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('rejects with RedisStoreError when Redis does not answer, and on a record it cannot read', async () => {
    const connection = await library.connect(redis.url);
    await connection.close();
    const down = new RedisJournalStore(connection.client, { commandTimeoutMs: 300 });
    const at = new Date().toISOString();
    await expect(down.put({ job: 'j', key: 'k', state: 'intent', at })).rejects.toThrow(
      RedisStoreError,
    );
    await expect(down.get('j', 'k')).rejects.toThrow(RedisStoreError);

    const prefix = `j-${randomUUID()}:`;
    await sendCommand(shared, ['HSET', `${prefix}journal:{j}`, 'k', '{"not":"a record"}']);
    const store = new RedisJournalStore(shared.client, { prefix });
    await expect(store.get('j', 'k')).rejects.toThrow(/unreadable record/);
  });
});
