/**
 * RedisJournalStore against a real redis-server with each client library: the bulk engineer's
 * journal contract suite, the expiry of its keys, and a Redis that does not answer.
 */

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { JournalLockedError } from 'partner-sdk/bulk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisJournalStore, RedisStoreError } from '../../src/redis/index';
import { describeJournalStoreContract } from '../helpers/journal-store-contract';
import { type Connection, libraries, sendCommand } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';
import { sleep } from '../helpers/waits';

const redis = useRedisServer();

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

  it('refuses a second writer of a job while the first holds its lease: claim and put, naming the holder', async () => {
    const prefix = `j-${randomUUID()}:`;
    const first = new RedisJournalStore(shared.client, { prefix, leaseMs: 60_000 });
    const second = new RedisJournalStore(shared.client, { prefix, leaseMs: 60_000 });
    const at = new Date().toISOString();
    await first.claim('cohort-1');
    await first.put({ job: 'cohort-1', key: 'trx_1', state: 'intent', at });
    const refused = await second.claim('cohort-1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(JournalLockedError);
    expect(refused).not.toBeInstanceOf(RedisStoreError);
    expect((refused as JournalLockedError).holder).toMatchObject({
      pid: process.pid,
      host: hostname(),
    });
    expect((refused as JournalLockedError).holder.expiresInMs).toBeGreaterThan(50_000);
    await expect(
      second.put({ job: 'cohort-1', key: 'trx_2', state: 'intent', at }),
    ).rejects.toThrow(JournalLockedError);
    expect(await second.get('cohort-1', 'trx_2')).toBeUndefined();
    // Another job is not held; the first job is free once released.
    await second.claim('cohort-2');
    await first.release('cohort-1');
    await second.claim('cohort-1');
    await second.put({ job: 'cohort-1', key: 'trx_2', state: 'intent', at });
    await first.close();
    await second.close();
  });

  it('lets the next writer take over once a lease that nobody renews runs out', async () => {
    const prefix = `j-${randomUUID()}:`;
    const gone = new RedisJournalStore(shared.client, { prefix, leaseMs: 300 });
    await gone.claim('cohort-1');
    // The holder stops renewing (as a killed process would) without giving the lease back.
    await sendCommand(shared, [
      'SET',
      `${prefix}journal-lease:{cohort-1}`,
      '{"pid":1}',
      'PX',
      '300',
    ]);
    const next = new RedisJournalStore(shared.client, { prefix, leaseMs: 300 });
    await expect(next.claim('cohort-1')).rejects.toThrow(JournalLockedError);
    // The lease runs out by time alone: this test is about that time passing.
    await sleep(400);
    await next.claim('cohort-1');
    await next.close();
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
