import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { PartnerClient } from 'partner-sdk';
import type { JournalRecord } from 'partner-sdk/bulk';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { afterAll, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ANSWER_DELAY_MS = 150;

/**
 * The kit on loopback, with each refund request's answer held back after the kit has acted on it:
 * a process killed meanwhile has refunds made whose answers it never read.
 */
async function serveWithLateAnswers(
  mock: MockPartnerApi,
): Promise<{ url: string; server: Server; held: () => number }> {
  let held = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const hasBody = req.method !== 'GET' && chunks.length > 0;
    const request = new Request(`${mock.baseUrl.replace(/\/api\/v1$/, '')}${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? Buffer.concat(chunks) : undefined,
    });
    const answer = await mock.fetch(request);
    const body = Buffer.from(await answer.arrayBuffer());
    if (req.method === 'POST' && req.url?.includes('/financial/refund/')) {
      held++;
      await delay(ANSWER_DELAY_MS);
      held--;
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      out[name] = value;
    });
    if (!res.destroyed) res.writeHead(answer.status, out).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api/v1`, server, held: () => held };
}

interface Line {
  key: string;
  status: string;
  reconciled?: boolean;
}

/**
 * Runs the job in a child process. With `killWhen`, SIGKILLs it as soon as that says so (checked
 * every few milliseconds with the lines printed so far). Resolves with the lines it printed.
 */
function runJob(
  env: Record<string, string>,
  killWhen?: (lines: Line[]) => boolean,
): Promise<Line[]> {
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
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearInterval(watch);
      if (killWhen ? signal === 'SIGKILL' : code === 0) resolve(lines);
      else reject(new Error(`job exited ${code ?? signal}: ${stderr}`));
    });
  });
}

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
