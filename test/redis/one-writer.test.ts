/**
 * One writer per Redis journal, with real processes on a real redis-server: two refund jobs
 * started at once on one job's journal; one runs, the other is refused by the lease (exit 3,
 * nothing sent), and each transaction is refunded once.
 */

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { serveWithLateAnswers, spawnJob } from '../helpers/kill-job';
import { libraries } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';

const redis = useRedisServer();

describe.each(libraries)('one writer per Redis journal over $name', (library) => {
  it('two jobs started at once on one journal: one runs, the other exits non-zero having sent nothing', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const { url, server } = await serveWithLateAnswers(mock);
    const dir = await mkdtemp(join(tmpdir(), 'partner-redis-one-writer-'));
    try {
      const hashes = Array.from({ length: 30 }, () => mock.addTransaction());
      await writeFile(join(dir, 'hashes.txt'), `${hashes.join('\n')}\n`);
      const prefix = `one-writer-${randomUUID()}:`;
      const env = (runner: string) => ({
        PARTNER_API_BASE_URL: url,
        PARTNER_API_CLIENT_TOKEN: mock.credentials.clientToken,
        PARTNER_API_SELLER_TOKEN: mock.sellers.person.publicToken,
        HASHES_FILE: join(dir, 'hashes.txt'),
        REDIS_URL: redis.url,
        REDIS_LIBRARY: library.name,
        REDIS_PREFIX: prefix,
        RUNNER: runner,
      });

      const runs = await Promise.all([spawnJob(env('a')), spawnJob(env('b'))]);

      const winners = runs.filter((run) => run.code === 0);
      const losers = runs.filter((run) => run.code !== 0);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expect(winners[0]!.lines.map((line) => line.status)).toEqual(hashes.map(() => 'succeeded'));
      const loser = losers[0]!;
      expect(loser.code).toBe(3);
      expect(loser.lines).toEqual([]);
      expect(loser.stderr).toMatch(
        /JournalLockedError: the Redis journal of job "refund-cohort" is in use by process \d+ on /,
      );
      const loserName = runs[0] === loser ? 'a' : 'b';
      expect(mock.requests.filter((r) => r.headers['x-runner'] === loserName)).toEqual([]);
      for (const hash of hashes) {
        const posts = mock.requests.filter(
          (r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`,
        );
        expect(posts).toHaveLength(1);
      }
    } finally {
      server.closeAllConnections();
      server.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
