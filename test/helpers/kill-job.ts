/**
 * The pieces of the kill-and-resume tests: the kit on loopback with refund answers held back after
 * the kit has acted, and the refund job run as a child process that a test can SIGKILL.
 */

import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { PartnerClient } from 'partner-sdk';
import type { MockPartnerApi } from 'partner-sdk/testing';
import { expect } from 'vitest';
import { kitRequest, writeAnswer } from './kit-bridge';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ANSWER_DELAY_MS = 150;

/**
 * The kit on loopback, with each refund request's answer held back after the kit has acted on it:
 * a process killed meanwhile has refunds made whose answers it never read.
 */
export async function serveWithLateAnswers(
  mock: MockPartnerApi,
): Promise<{ url: string; server: Server; held: () => number }> {
  let held = 0;
  const server = createServer(async (req, res) => {
    const request = await kitRequest(mock, req);
    const answer = await mock.fetch(request);
    const body = Buffer.from(await answer.arrayBuffer());
    if (req.method === 'POST' && req.url?.includes('/financial/refund/')) {
      held++;
      await delay(ANSWER_DELAY_MS);
      held--;
    }
    writeAnswer(res, answer, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api/v1`, server, held: () => held };
}

export interface Line {
  key: string;
  status: string;
  reconciled?: boolean;
}

/** How a job process ended, and what it printed. */
export interface JobRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: Line[];
  stderr: string;
}

/**
 * Runs the job in a child process to its end (at most a minute). With `killWhen`, SIGKILLs it as
 * soon as that says so (checked every few milliseconds with the lines printed so far).
 */
export function spawnJob(
  env: Record<string, string>,
  killWhen?: (lines: Line[]) => boolean,
): Promise<JobRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', './examples/support/register.ts', 'test/bulk/fixtures/refund-job.ts'],
      { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const lines: Line[] = [];
    let pending = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const watch = killWhen
      ? setInterval(() => {
          if (killWhen(lines)) child.kill('SIGKILL');
        }, 2)
      : undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        lines.push(JSON.parse(pending.slice(0, newline)) as Line);
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(watch);
      resolve({ code, signal, lines, stderr });
    });
  });
}

/**
 * Runs the job in a child process. With `killWhen`, SIGKILLs it as soon as that says so (checked
 * every few milliseconds with the lines printed so far). Resolves with the lines it printed.
 */
export async function runJob(
  env: Record<string, string>,
  killWhen?: (lines: Line[]) => boolean,
): Promise<Line[]> {
  const run = await spawnJob(env, killWhen);
  if (killWhen ? run.signal === 'SIGKILL' : run.code === 0) return run.lines;
  throw new Error(`job exited ${run.code ?? run.signal}: ${run.stderr}`);
}

/**
 * The in-doubt items (intent, no outcome) whose refund the kit made anyway: the answers the kill
 * lost. Asserts there is at least one, then completes every refund made so far, so that a blind
 * repeat would now make a second one.
 */
export async function lostAnswersOf(
  mock: MockPartnerApi,
  hashes: readonly string[],
  inDoubt: readonly string[],
): Promise<string[]> {
  const seller = sellerOf(mock);
  const lostAnswers: string[] = [];
  for (const hash of inDoubt)
    if ((await seller.refunds.list(hash)).length > 0) lostAnswers.push(hash);
  expect(lostAnswers.length).toBeGreaterThanOrEqual(1);
  for (const hash of hashes) {
    if ((await seller.refunds.list(hash)).length > 0) await seller.refunds.retrieveStatus(hash);
  }
  return lostAnswers;
}

/**
 * Asserts the resumed run: what the first run finished is skipped, each lost answer is reconciled
 * with its one POST, and every transaction ends with exactly one refund.
 */
export async function expectResumedExactlyOnce(
  mock: MockPartnerApi,
  hashes: readonly string[],
  runs: { first: Line[]; second: Line[]; lostAnswers: readonly string[] },
): Promise<void> {
  const { first, second, lostAnswers } = runs;
  expect(second).toHaveLength(hashes.length);
  const outcome = Object.fromEntries(second.map((line) => [line.key, line]));
  for (const line of first) expect(outcome[line.key]?.status).toBe('skipped');
  for (const hash of lostAnswers)
    expect(outcome[hash]).toMatchObject({ status: 'succeeded', reconciled: true });
  const seller = sellerOf(mock);
  for (const hash of hashes) expect(await seller.refunds.list(hash)).toHaveLength(1);
  const posts = (hash: string) =>
    mock.requests.filter((r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`)
      .length;
  for (const hash of lostAnswers) expect(posts(hash)).toBe(1);
}

/** A seller client on the kit itself (no socket), to read what the jobs did. */
function sellerOf(mock: MockPartnerApi) {
  return new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
  }).forUser(mock.sellers.person.publicToken);
}
