/**
 * The CLI's `--journal` when the file cannot serve: a directory that does not exist, the input
 * file given as the journal by mistake, a journal written by a newer version. Each is a usage
 * error (exit 2) naming the journal, nothing is sent, and the file is left as it was.
 */

import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_ARGS, cli, jsonLines, useCliKit } from './run-cli';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const { mock, env, dir } = useCliKit('journal', { refundPolls: 0 });

const sent = () => mock.requests.filter((r) => r.path.startsWith('/financial/refund/')).length;

describe('partner-sdk --journal that cannot serve', { timeout: 90_000 }, () => {
  it('a journal in a directory that does not exist: exit 2 naming the journal, nothing sent', async () => {
    const hash = mock.addTransaction();
    const journal = join(dir, 'missing', 'cohort.jsonl');
    const before = sent();
    const run = await cli(['refunds', 'request', hash, '--journal', journal], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot open the journal ${journal}`);
    expect(run.stderr).toContain('ENOENT');
    expect(run.stderr).not.toMatch(/\.lock|\.tmp/);
    expect(sent()).toBe(before);
  });

  it('the input file given as the journal: exit 2, the file kept whole, nothing sent', async () => {
    const hash = mock.addTransaction();
    const input = join(dir, 'one-hash.txt');
    await writeFile(input, `${hash}\n`);
    const before = sent();
    const run = await cli(['refunds', 'request', '--file', input, '--journal', input], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('line 1 is not a journal record');
    expect(await readFile(input, 'utf8')).toBe(`${hash}\n`);
    expect(sent()).toBe(before);
  });

  it('a journal written by a newer version: exit 2 saying so, the journal kept whole, nothing sent', async () => {
    const hash = mock.addTransaction();
    const journal = join(dir, 'newer.jsonl');
    const text = `${JSON.stringify({
      job: 'refunds.request',
      key: hash,
      state: 'settled',
      at: new Date().toISOString(),
      version: 2,
    })}\n`;
    await writeFile(journal, text);
    const before = sent();
    const run = await cli(['refunds', 'request', hash, '--journal', journal], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/newer version of partner-sdk/);
    expect(await readFile(journal, 'utf8')).toBe(text);
    expect(sent()).toBe(before);
  });

  it('a journal that stops taking writes mid-job (a full disk): exit 1 naming the journal and how to resume; the resumed job refunds each once', async () => {
    const hashes = Array.from({ length: 30 }, () => mock.addTransaction());
    const input = join(dir, 'many.txt');
    await writeFile(input, `${hashes.join('\n')}\n`);
    const journal = join(dir, 'full.jsonl');
    const args = ['--json', 'refunds', 'request', '--file', input, '--journal', journal];
    // The shell's file-size limit (2 KiB) makes the journal's writes fail part-way, as a full disk
    // does: Node then sees EFBIG where a full disk gives ENOSPC.
    const limited = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        'bash',
        [
          '-c',
          'ulimit -f 2; exec "$0" "$@"',
          process.execPath,
          ...CLI_ARGS,
          ...args,
          '--concurrency',
          '1',
        ],
        {
          cwd: ROOT,
          env: { ...process.env, ...env } as NodeJS.ProcessEnv,
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });
    expect(limited.code).toBe(1);
    const { error } = JSON.parse(limited.stderr.trim().split('\n').at(-1)!) as {
      error: { message: string };
    };
    expect(error.message).toContain(`the journal ${journal} could not be written (EFBIG)`);
    expect(error.message).toContain(`--journal ${journal}`);
    const resumed = await cli(args, { env });
    expect(resumed.code).toBe(0);
    const summary = jsonLines(resumed.stdout).at(-1)?.summary as Record<string, number>;
    expect(summary.skipped).toBeGreaterThan(0);
    for (const hash of hashes) {
      const posts = mock.requests.filter(
        (r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`,
      );
      expect(posts.length, hash).toBe(1);
    }
  });
});
