/**
 * A bulk refund job killed on one process and resumed on another through the Redis journal
 * (issue 18): the journal lives in a real redis-server, not on the killed process's disk, and
 * the resumed process refunds every transaction exactly once, the ones whose answers were lost
 * at the kill included.
 */

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisJournalStore } from '../../src/redis/index';
import {
  expectResumedExactlyOnce,
  lostAnswersOf,
  runJob,
  serveWithLateAnswers,
} from '../bulk/kill-job';
import { libraries } from './support/libraries';
import { type RedisServer, startRedisServer } from './support/redis-server';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 20_000);
afterAll(() => redis?.close());

describe.each(libraries)('a bulk job on the Redis journal over $name', (library) => {
  it('killed on one process and resumed on another, refunds every transaction exactly once', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const { url, server, held } = await serveWithLateAnswers(mock);
    const dir = await mkdtemp(join(tmpdir(), 'partner-redis-kill-'));
    const connection = await library.connect(redis.url);
    try {
      const hashes = Array.from({ length: 40 }, () => mock.addTransaction());
      await writeFile(join(dir, 'hashes.txt'), `${hashes.join('\n')}\n`);
      const prefix = `bulk-${randomUUID()}:`;
      const env = {
        PARTNER_API_BASE_URL: url,
        PARTNER_API_CLIENT_TOKEN: mock.credentials.clientToken,
        PARTNER_API_SELLER_TOKEN: mock.sellers.person.publicToken,
        HASHES_FILE: join(dir, 'hashes.txt'),
        REDIS_URL: redis.url,
        REDIS_LIBRARY: library.name,
        REDIS_PREFIX: prefix,
      };

      // The first process is killed half-way, while the kit holds answers to refunds it made.
      const first = await runJob(env, (lines) => lines.length >= 20 && held() > 0);
      expect(first.length).toBeGreaterThanOrEqual(20);
      expect(first.length).toBeLessThan(40);

      // What the first process left in Redis: an outcome for what finished, an intent for the rest.
      const journal = new RedisJournalStore(connection.client, { prefix });
      const inDoubt: string[] = [];
      for (const hash of hashes) {
        const record = await journal.get('refund-cohort', hash);
        if (record?.state === 'intent') inDoubt.push(hash);
      }
      expect(inDoubt.length).toBeGreaterThanOrEqual(1);
      const lostAnswers = await lostAnswersOf(mock, hashes, inDoubt);

      // Another process resumes the same job from the same Redis journal.
      const second = await runJob(env);
      await expectResumedExactlyOnce(mock, hashes, { first, second, lostAnswers });
    } finally {
      await connection.close();
      server.closeAllConnections();
      server.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
