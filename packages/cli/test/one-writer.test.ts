/**
 * The CLI's side of one writer per journal and of repeated keys: two runs started at once on one
 * `--journal` (one runs, the other exits 3 having sent nothing), and a hash given three times in
 * one run (requested once, the repeats shown as duplicates).
 */

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLossyProxy } from '../../../test/helpers/lossy-proxy';
import { cli, jsonLines, useCliKit } from './run-cli';

const kit = useCliKit('one-writer', { refundPolls: 0 });
const { mock, env, dir } = kit;

const posts = (hash: string) =>
  mock.requests.filter((r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`).length;

describe('partner-sdk bulk commands', { timeout: 90_000 }, () => {
  it('two runs at once on one --journal: one runs, the other exits 3 having sent nothing', async () => {
    const hashes = Array.from({ length: 30 }, () => mock.addTransaction());
    await writeFile(join(dir, 'hashes.txt'), `${hashes.join('\n')}\n`);
    const logins = mock.stats.logins;
    const args = [
      '--json',
      'refunds',
      'request',
      '--file',
      join(dir, 'hashes.txt'),
      '--journal',
      join(dir, 'cohort.jsonl'),
    ];

    // The kit holds every refund request until one run has exited: a run that took the journal
    // cannot finish before the other has tried it, however late a loaded machine starts that one.
    let oneExited: () => void = () => {};
    const exited = new Promise<void>((resolve) => {
      oneExited = resolve;
    });
    const proxy = await startLossyProxy(kit.url, async (method, path) => {
      if (method === 'POST' && path.startsWith('/financial/refund/')) await exited;
      return 'relay' as const;
    });
    const held = { ...env, PARTNER_API_BASE_URL: proxy.baseUrl };
    const started = [cli(args, { env: held }), cli(args, { env: held })];
    Promise.race(started).then(oneExited, oneExited);
    const runs = await Promise.all(started).finally(() => proxy.close());

    expect(runs.map((run) => run.code).sort()).toEqual([0, 3]);
    const winner = runs.find((run) => run.code === 0)!;
    const loser = runs.find((run) => run.code === 3)!;
    const outcomes = jsonLines(winner.stdout).filter((line) => !('summary' in line));
    expect(outcomes.map((line) => line.status)).toEqual(hashes.map(() => 'succeeded'));
    expect(loser.stdout).toBe('');
    expect(loser.stderr).toMatch(/JournalLockedError|in use by process \d+ on .* since /);
    // Every process logs in before its first call: one login means the loser never called.
    expect(mock.stats.logins - logins).toBe(1);
    for (const hash of hashes) expect(posts(hash)).toBe(1);
  });

  it('a hash given three times is requested once, the repeats shown as duplicates', async () => {
    const dupA = mock.addTransaction();
    const run = await cli(['--format', 'table', 'refunds', 'request', dupA, dupA, dupA], { env });
    expect(run.code).toBe(0);
    expect(posts(dupA)).toBe(1);
    expect(run.stdout.split('\n').filter((line) => line.includes('duplicate'))).toHaveLength(2);
    expect(run.stderr).toContain('3 items: 1 succeeded, 2 duplicate');
  });
});
