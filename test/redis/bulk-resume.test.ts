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
import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisJournalStore } from '../../src/redis/index';
import { runJob, serveWithLateAnswers } from '../bulk/kill-job';
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
      const seller = new PartnerClient({
        baseUrl: mock.baseUrl,
        fetch: mock.fetch,
        ...mock.credentials,
      }).forUser(mock.sellers.person.publicToken);
      const lostAnswers: string[] = [];
      for (const hash of inDoubt)
        if ((await seller.refunds.list(hash)).length > 0) lostAnswers.push(hash);
      expect(lostAnswers.length).toBeGreaterThanOrEqual(1);
      // Every refund made so far completes: a blind repeat would now make a second one.
      for (const hash of hashes) {
        if ((await seller.refunds.list(hash)).length > 0) await seller.refunds.retrieveStatus(hash);
      }

      // Another process resumes the same job from the same Redis journal.
      const second = await runJob(env);
      expect(second).toHaveLength(40);
      const outcome = Object.fromEntries(second.map((line) => [line.key, line]));
      for (const line of first) expect(outcome[line.key]?.status).toBe('skipped');
      for (const hash of lostAnswers)
        expect(outcome[hash]).toMatchObject({ status: 'succeeded', reconciled: true });
      for (const hash of hashes) expect(await seller.refunds.list(hash)).toHaveLength(1);
      const posts = (hash: string) =>
        mock.requests.filter((r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`)
          .length;
      for (const hash of lostAnswers) expect(posts(hash)).toBe(1);
    } finally {
      await connection.close();
      server.closeAllConnections();
      server.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
