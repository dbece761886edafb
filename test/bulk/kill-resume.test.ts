import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient } from 'partner-sdk';
import type { JournalRecord } from 'partner-sdk/bulk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterAll, expect, it } from 'vitest';
import { runJob, serveWithLateAnswers } from './kill-job';

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
  const seller = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
  }).forUser(mock.sellers.person.publicToken);
  const lostAnswers = [];
  for (const hash of inDoubt)
    if ((await seller.refunds.list(hash)).length > 0) lostAnswers.push(hash);
  expect(lostAnswers.length).toBeGreaterThanOrEqual(1);
  // Every refund made so far completes: a blind repeat would now make a second one.
  for (const hash of hashes) {
    if ((await seller.refunds.list(hash)).length > 0) await seller.refunds.retrieveStatus(hash);
  }

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
}, 90_000);
