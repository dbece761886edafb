/**
 * One writer per file journal, with real processes: two refund jobs started at once on one
 * journal (one runs, the other exits non-zero having sent nothing, each transaction refunded
 * once), several processes opening one journal at the same instant, and several taking over at
 * the same instant the lock of a holder killed with SIGKILL.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { type Child, startChildren } from '../helpers/children';
import { serveWithLateAnswers, spawnJob } from '../helpers/kill-job';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'partner-one-writer-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

interface Opened {
  held: boolean;
  error?: string;
  message?: string;
  holder?: { pid?: number; host?: string; since?: string };
}

/** Tells every child to open the journal at the same instant; their answers, in order. */
function openAtOnce(children: Child[]): Promise<Opened[]> {
  const at = Date.now() + 400;
  return Promise.all(children.map((child) => child.ask<Opened>({ open: true, at })));
}

describe('one writer per file journal', () => {
  it('two jobs started at once on one journal: one runs, the other exits non-zero having sent nothing', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const { url, server } = await serveWithLateAnswers(mock);
    cleanups.push(async () => {
      server.closeAllConnections();
      server.close();
    });
    const dir = await tempDir();
    const hashes = Array.from({ length: 30 }, () => mock.addTransaction());
    await writeFile(join(dir, 'hashes.txt'), `${hashes.join('\n')}\n`);
    const env = (runner: string) => ({
      PARTNER_API_BASE_URL: url,
      PARTNER_API_CLIENT_TOKEN: mock.credentials.clientToken,
      PARTNER_API_SELLER_TOKEN: mock.sellers.person.publicToken,
      HASHES_FILE: join(dir, 'hashes.txt'),
      JOURNAL: join(dir, 'journal.jsonl'),
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
      /JournalLockedError: .*journal\.jsonl is in use by process \d+ on /,
    );
    const loserName = runs[0] === loser ? 'a' : 'b';
    expect(mock.requests.filter((r) => r.headers['x-runner'] === loserName)).toEqual([]);
    for (const hash of hashes) {
      const posts = mock.requests.filter(
        (r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`,
      );
      expect(posts).toHaveLength(1);
    }
  }, 90_000);

  it('six processes opening one journal at the same instant: exactly one holds it; after a SIGKILL, exactly one of six takes it over', async () => {
    const dir = await tempDir();
    const env = () => ({ JOURNAL: join(dir, 'journal.jsonl') });
    const first = await startChildren(6, 'test/bulk/fixtures/hold-journal.ts', env);
    cleanups.push(async () => {
      await Promise.all(first.map((child) => child.close()));
    });
    const opened = await openAtOnce(first);
    expect(opened.filter((o) => o.held)).toHaveLength(1);
    const holderIndex = opened.findIndex((o) => o.held);
    const holderPid = first[holderIndex]!.ready.pid as number;
    for (const refused of opened.filter((o) => !o.held)) {
      expect(refused).toMatchObject({ error: 'JournalLockedError', holder: { pid: holderPid } });
      expect(refused.message).toContain(`in use by process ${holderPid}`);
    }

    // The holder is killed: its lock file stays, naming a process that no longer runs.
    await first[holderIndex]!.close();
    const second = await startChildren(6, 'test/bulk/fixtures/hold-journal.ts', env);
    cleanups.push(async () => {
      await Promise.all(second.map((child) => child.close()));
    });
    const retaken = await openAtOnce(second);
    expect(retaken.filter((o) => o.held)).toHaveLength(1);
    const newPid = second[retaken.findIndex((o) => o.held)]!.ready.pid as number;
    for (const refused of retaken.filter((o) => !o.held)) {
      expect(refused.holder?.pid).toBe(newPid);
    }
  }, 90_000);
});
