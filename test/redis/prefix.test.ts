/**
 * A store's `prefix` is put before each key as it is: a prefix with `__proto__`, a newline or a
 * space writes its keys under exactly that text, each with an expiry. Braces are refused when
 * the store is made: they would move the keys one script touches to different Redis Cluster
 * slots (the hash tag is the first `{…}` of a key), which a standalone Redis never shows.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fleetPace,
  RedisDedupeStore,
  RedisJournalStore,
  RedisTokenStore,
} from '../../src/redis/index';
import { type Connection, libraries, sendCommand } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';

const redis = useRedisServer();

const odd = ['__proto__:', 'line\nbreak:', 'with space:', 'constructor'];

describe.each(libraries)('a store prefix over $name', (library) => {
  let shared: Connection;
  beforeAll(async () => {
    shared = await library.connect(redis.url);
  });
  afterAll(() => shared?.close());

  const expiry = async (key: string) => Number(await sendCommand(shared, ['PTTL', key]));

  it.each(odd)(
    'writes the keys under the prefix %j as it is, each with an expiry',
    async (tail) => {
      const prefix = `${randomUUID()}${tail}`;
      const dedupe = new RedisDedupeStore(shared.client, { prefix });
      await dedupe.claim('subscription_ended:req_1', { leaseMs: 30_000, owner: 'o' });
      expect(await expiry(`${prefix}webhook:subscription_ended:req_1`)).toBeGreaterThan(0);

      const journal = new RedisJournalStore(shared.client, { prefix });
      const record = {
        job: 'j',
        key: 'trx_1',
        state: 'intent' as const,
        at: new Date().toISOString(),
      };
      await journal.put(record);
      expect(await expiry(`${prefix}journal:{j}`)).toBeGreaterThan(0);
      expect(await journal.get('j', 'trx_1')).toMatchObject({ key: 'trx_1', state: 'intent' });
    },
  );

  it.each(['{billing}:', 'billing{:', 'billing}:'])(
    'refuses the prefix %j when a store is made, naming the option',
    (prefix) => {
      const made = [
        () => new RedisDedupeStore(shared.client, { prefix }),
        () => new RedisJournalStore(shared.client, { prefix }),
        () => new RedisTokenStore(shared.client, { prefix }),
        () => fleetPace(shared.client, { prefix, requestsPerSecond: 10 }),
      ];
      for (const make of made) expect(make).toThrow(/`prefix`.*brace/);
    },
  );
});
