/**
 * The guide's table, for `RedisJournalStore`: with Redis silent mid-job (its writes paused, so
 * every put outlives `commandTimeoutMs`), the job rejects with `RedisStoreError` and no request
 * goes out without its intent recorded; run again with the same job id once Redis answers, it
 * refunds every transaction exactly once.
 */

import { randomUUID } from 'node:crypto';
import { requestRefunds } from 'partner-sdk/bulk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerClient } from '../../src/index';
import { RedisJournalStore, RedisStoreError } from '../../src/redis/index';
import { createMockPartnerApi } from '../../src/testing/index';
import { type Connection, libraries, sendCommand } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';
import { sleep } from '../helpers/waits';

const redis = useRedisServer();

/** Runs `run` again while the job's lease is still the stopped run's, for at most `ms`. */
async function whenFree<T>(run: () => Promise<T>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await run();
    } catch (error) {
      // By name: the store here is the source's, the job the package's.
      const locked = error instanceof Error && error.name === 'JournalLockedError';
      if (!locked || Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}

describe.each(libraries)('a bulk job on the Redis journal over $name', (library) => {
  let admin: Connection;
  beforeAll(async () => {
    admin = await library.connect(redis.url);
  });
  afterAll(() => admin?.close());

  it('Redis silent mid-job: rejects with RedisStoreError, sends nothing unrecorded; run again, every transaction refunded once', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const hashes = Array.from({ length: 8 }, () => mock.addTransaction(100));
    let answered = 0;
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      const answer = await mock.fetch(request);
      if (request.method === 'POST' && /\/financial\/refund\//.test(request.url)) {
        // After the third refund, Redis stops answering writes: the next put waits past its limit.
        if (++answered === 3) await sendCommand(admin, ['CLIENT', 'PAUSE', '60000', 'WRITE']);
      }
      return answer;
    };
    const seller = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch,
      ...mock.credentials,
      logLevel: 'off',
    }).forUser(mock.sellers.person.publicToken);
    const connection = await library.connect(redis.url);
    const prefix = `outage-${randomUUID()}:`;
    const store = new RedisJournalStore(connection.client, {
      prefix,
      commandTimeoutMs: 300,
      leaseMs: 1_000,
    });
    const journal = { store, job: 'cohort' };
    const posts = (hash: string) =>
      mock.requests.filter((r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`)
        .length;
    try {
      const stopped = await Promise.resolve(
        requestRefunds(seller, hashes, { concurrency: 1, journal }),
      ).catch((error: unknown) => error);
      expect(stopped).toBeInstanceOf(RedisStoreError);
      expect(hashes.map(posts).reduce((a, b) => a + b, 0)).toBe(3);
      await sendCommand(admin, ['CLIENT', 'UNPAUSE']);
      const intents = (await sendCommand(admin, [
        'HKEYS',
        `${prefix}journal:{cohort}`,
      ])) as string[];
      for (const hash of hashes) if (posts(hash) > 0) expect(intents).toContain(hash);

      const again = new RedisJournalStore(connection.client, { prefix, leaseMs: 1_000 });
      await whenFree(
        () =>
          Promise.resolve(
            requestRefunds(seller, hashes, {
              concurrency: 1,
              journal: { store: again, job: 'cohort' },
            }),
          ),
        10_000,
      );
      expect(hashes.map(posts)).toEqual(hashes.map(() => 1));
      for (const hash of hashes) expect(await seller.refunds.list(hash)).toHaveLength(1);
    } finally {
      await sendCommand(admin, ['CLIENT', 'UNPAUSE']);
      await connection.close();
    }
  }, 60_000);
});
