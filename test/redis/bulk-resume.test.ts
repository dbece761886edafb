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
import { describe, expect, it } from 'vitest';
import { RedisJournalStore } from '../../src/redis/index';
import {
  expectResumedExactlyOnce,
  lostAnswersOf,
  runJob,
  serveWithLateAnswers,
  spawnJob,
} from '../helpers/kill-job';
import { libraries, sendCommand } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';

const redis = useRedisServer();

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

      // While the dead process's lease lasts, a new runner is refused and sends nothing.
      const before = mock.requests.length;
      const refused = await spawnJob({ ...env, RUNNER: 'early' });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/JournalLockedError: .*in use by process \d+ on /);
      expect(mock.requests.slice(before).filter((r) => r.headers['x-runner'] === 'early')).toEqual(
        [],
      );

      // The dead process's lease runs out (its 30 s pass at once here: the expiry itself is the
      // store's test); then another process resumes the same job from the same Redis journal.
      const lease = `${prefix}journal-lease:{refund-cohort}`;
      expect(Number(await sendCommand(connection, ['PTTL', lease]))).toBeGreaterThan(0);
      await sendCommand(connection, ['PEXPIRE', lease, '1']);
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
