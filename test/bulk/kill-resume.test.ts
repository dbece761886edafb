import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JournalRecord } from 'partner-sdk/bulk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterAll, expect, it } from 'vitest';
import {
  expectResumedExactlyOnce,
  lostAnswersOf,
  runJob,
  serveWithLateAnswers,
} from '../helpers/kill-job';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

it('a job killed half-way and resumed with its journal refunds every transaction exactly once', async () => {
  const mock = createMockPartnerApi({ refundPolls: 0 });
  const { url, server, held } = await serveWithLateAnswers(mock);
  const dir = await mkdtemp(join(tmpdir(), 'partner-kill-'));
  cleanups.push(async () => {
    server.closeAllConnections();
    server.close();
    await rm(dir, { recursive: true, force: true });
  });
  const hashes = Array.from({ length: 40 }, () => mock.addTransaction());
  await writeFile(join(dir, 'hashes.txt'), `${hashes.join('\n')}\n`);
  const journal = join(dir, 'journal.jsonl');
  const env = {
    PARTNER_API_BASE_URL: url,
    PARTNER_API_CLIENT_TOKEN: mock.credentials.clientToken,
    PARTNER_API_SELLER_TOKEN: mock.sellers.person.publicToken,
    HASHES_FILE: join(dir, 'hashes.txt'),
    JOURNAL: journal,
  };

  // Killed half-way, while the kit has made refunds whose answers it still holds back.
  const first = await runJob(env, (lines) => lines.length >= 20 && held() > 0);
  expect(first.length).toBeGreaterThanOrEqual(20);
  expect(first.length).toBeLessThan(40);

  // Items in flight at the kill: intent recorded, no outcome; some of them the kit refunded.
  const last = new Map<string, JournalRecord>();
  for (const line of (await readFile(journal, 'utf8')).split('\n').filter(Boolean)) {
    const record = JSON.parse(line) as JournalRecord;
    last.set(record.key, record);
  }
  const inDoubt = [...last.values()].filter((r) => r.state === 'intent').map((r) => r.key);
  expect(inDoubt.length).toBeGreaterThanOrEqual(1);
  const lostAnswers = await lostAnswersOf(mock, hashes, inDoubt);

  const second = await runJob(env);
  await expectResumedExactlyOnce(mock, hashes, { first, second, lostAnswers });
}, 90_000);
