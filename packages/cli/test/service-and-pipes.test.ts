/**
 * A bulk command against a service that throttles and fails, and a reader that goes away: the exit
 * codes and the resume the CLI guide promises, each transaction refunded once whatever happened.
 */

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PartnerClient } from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { CLI_ARGS, jsonLines, useCliKit } from './run-cli';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const kit = useCliKit('service', { refundPolls: 0 });
const { mock, env, dir, run } = kit;

/** How many refunds each transaction has at the kit. */
async function refundCounts(hashes: string[]): Promise<number[]> {
  const seller = new PartnerClient({ baseUrl: kit.url, ...mock.credentials }).forUser(
    mock.sellers.person.publicToken,
  );
  return Promise.all(hashes.map(async (hash) => (await seller.refunds.list(hash)).length));
}

/**
 * Runs the CLI until the first line on its stdout (or stderr), then has `atFirstLine` act on it
 * (close the pipe as `| head -1` does, or signal it); resolves with its exit code and output.
 */
function runUntilFirstLine(
  args: string[],
  atFirstLine: (child: ChildProcessWithoutNullStreams) => void,
  watched: 'stdout' | 'stderr' = 'stdout',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const merged: Record<string, string | undefined> = { ...process.env, ...env };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
    cwd: ROOT,
    env: merged as NodeJS.ProcessEnv,
  });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  let acted = false;
  const act = (text: string) => {
    if (!acted && text.includes('\n')) {
      acted = true;
      atFirstLine(child);
    }
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (watched === 'stdout') act(stdout);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (watched === 'stderr') act(stderr);
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('partner-sdk bulk commands against a hard service and reader', {
  timeout: 120_000,
}, () => {
  it('stdout closed by its reader (| head -1): exit 141, quietly; the same command resumes, each refunded once', async () => {
    const hashes = Array.from({ length: 40 }, () => mock.addTransaction());
    const journal = join(dir, 'head.jsonl');
    const args = ['refunds', 'request', '--concurrency', '1', '--journal', journal, ...hashes];
    mock.setLatency(20);
    const cut = await runUntilFirstLine(args, (child) => child.stdout.destroy());
    mock.setLatency(undefined);
    expect(cut.code).toBe(141);
    expect(cut.stderr).toBe('');
    const counts = await refundCounts(hashes);
    expect(counts.some((count) => count === 0)).toBe(true);
    const resumed = await run(['--json', ...args]);
    expect(resumed.code).toBe(0);
    expect(await refundCounts(hashes)).toEqual(hashes.map(() => 1));
  });

  it('stderr closed by its reader (--verbose 2>&1 | head -1): exit 141, quietly; the same command resumes, each refunded once', async () => {
    const hashes = Array.from({ length: 40 }, () => mock.addTransaction());
    const journal = join(dir, 'stderr-head.jsonl');
    const args = ['refunds', 'request', '--concurrency', '1', '--journal', journal, ...hashes];
    mock.setLatency(20);
    const cut = await runUntilFirstLine(
      ['--verbose', ...args],
      (child) => child.stderr.destroy(),
      'stderr',
    );
    mock.setLatency(undefined);
    expect(cut.code).toBe(141);
    const counts = await refundCounts(hashes);
    expect(counts.some((count) => count === 0)).toBe(true);
    const resumed = await run(['--json', ...args]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await refundCounts(hashes)).toEqual(hashes.map(() => 1));
  });

  it('SIGTERM mid-job: exit 130, the summary says how to resume, the lock is gone; the same command refunds the rest once', async () => {
    const hashes = Array.from({ length: 20 }, () => mock.addTransaction());
    const journal = join(dir, 'term.jsonl');
    const args = ['refunds', 'request', '--concurrency', '1', '--journal', journal, ...hashes];
    mock.setLatency(100);
    const stopped = await runUntilFirstLine(['--json', ...args], (child) => child.kill('SIGTERM'));
    mock.setLatency(undefined);
    expect(stopped.code).toBe(130);
    const { summary } = jsonLines(stopped.stdout).at(-1) as { summary: Record<string, unknown> };
    expect(summary).toMatchObject({ aborted: true });
    expect(Number(summary.notStarted)).toBeGreaterThan(0);
    expect(summary.resume).toContain(`--journal ${journal}`);
    expect(existsSync(`${journal}.lock`)).toBe(false);
    const resumed = await run(['--json', ...args]);
    expect(resumed.code).toBe(0);
    expect(await refundCounts(hashes)).toEqual(hashes.map(() => 1));
  });

  it('a 429 with Retry-After and a 500 twice on one item still refund every item once, exit 0', async () => {
    const hashes = Array.from({ length: 6 }, () => mock.addTransaction());
    mock.failNext({
      status: 429,
      retryAfter: 1,
      method: 'POST',
      path: `/financial/refund/${hashes[1]}`,
    });
    mock.failNext({
      status: 500,
      times: 2,
      method: 'POST',
      path: `/financial/refund/${hashes[3]}`,
    });
    const result = await run(['--json', 'refunds', 'request', ...hashes]);
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines.filter((line) => line.status === 'succeeded')).toHaveLength(6);
    expect(lines.at(-1)).toMatchObject({ summary: { succeeded: 6, failed: 0 } });
    expect(await refundCounts(hashes)).toEqual(hashes.map(() => 1));
  });

  it('an item meeting a 500 more times than maxAttempts fails alone: exit 1, the others done', async () => {
    const hashes = Array.from({ length: 4 }, () => mock.addTransaction());
    mock.failNext({
      status: 500,
      times: 10,
      method: 'POST',
      path: `/financial/refund/${hashes[0]}`,
    });
    const result = await run(['--json', 'refunds', 'request', ...hashes]);
    mock.clearFaults();
    expect(result.code).toBe(1);
    const lines = jsonLines(result.stdout);
    expect(lines.find((line) => line.key === hashes[0])).toMatchObject({
      status: 'failed',
      error: { status: 500 },
    });
    expect(lines.at(-1)).toMatchObject({ summary: { succeeded: 3, failed: 1 } });
    expect(await refundCounts(hashes.slice(1))).toEqual([1, 1, 1]);
  });
});
