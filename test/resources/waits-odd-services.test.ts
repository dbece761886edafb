/**
 * The waiting guide's promises against a service that strays, through the public API by name: a
 * refund status the spec does not list, a poll answered 500 then 200, and a wait that ends (aborted
 * or timed out) leaving nothing behind that keeps the process alive.
 */

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PartnerClient, PollTimeoutError } from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { serversClosedAfterEach } from '../helpers/leak-check';
import { json, type StubServer, sequence } from '../helpers/stub-server';
import { withTimeout } from '../helpers/waits';

const { stub } = serversClosedAfterEach();
const root = fileURLToPath(new URL('../../', import.meta.url));

const clientOf = (server: StubServer) =>
  new PartnerClient({ baseUrl: server.baseUrl, clientToken: 'tok-wait', logLevel: 'off' });

const statusBody = (status: string) => ({
  status: 'success',
  message: 'ok',
  data: { status, transaction_hash: 'tx_1' },
});

/**
 * Runs `source` (an ES module importing `partner-sdk`) in its own Node, the SDK read from `src/`
 * as the other tests read it (no build needed); resolves when it exits.
 */
function runModule(source: string, env: Record<string, string>) {
  const args = ['--import', './examples/support/register.ts', '--input-type=module', '-e', source];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, exited };
}

describe('refund waits over a service that strays', () => {
  it('treats a status the spec does not list as not final: reported, then waited past', async () => {
    const server = await stub((_r, res) => json(res, 200, statusBody('cancelled')));
    const seen: string[] = [];
    const error = await clientOf(server)
      .refunds.waitForCompletion('tx_1', {
        interval: 20,
        timeout: 300,
        onStatus: (status) => seen.push(status),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as PollTimeoutError).lastStatus).toBe('cancelled');
    expect(seen).toEqual(['cancelled']);
    expect(server.requests.length).toBeGreaterThan(1);
  });

  it('waits through a poll answered 500, then resolves with the status that follows', async () => {
    const server = await stub(
      sequence(
        (_r, res) => json(res, 500, { message: 'Server Error' }),
        (_r, res) => json(res, 200, statusBody('completed')),
      ),
    );
    const seen: string[] = [];
    const final = await clientOf(server).refunds.waitForCompletion('tx_1', {
      interval: 10,
      onStatus: (status) => seen.push(status),
    });
    expect(final.status).toBe('completed');
    expect(seen).toEqual(['completed']);
    expect(server.requests).toHaveLength(2);
  });
  it('ends at its timeout within a Retry-After longer than the wait, no status seen', async () => {
    const server = await stub((_r, res) =>
      json(res, 503, { message: 'Service Unavailable' }, { 'retry-after': '120' }),
    );
    const started = Date.now();
    const error = await clientOf(server)
      .refunds.waitForCompletion('tx_1', { interval: 10, timeout: 400 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as PollTimeoutError).lastStatus).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(server.requests).toHaveLength(1);
  });
});

describe('export waits over a service that strays', () => {
  const exportBody = (status: string | null, url: string | null) => ({
    status: 'success',
    message: 'ok',
    data: { hash: 'exp_9', status, url },
  });

  it('waits past a status the spec does not list until the url is set, whatever its status', async () => {
    const file = 'https://files.example.test/exp_9.csv';
    const server = await stub(
      sequence(
        (_r, res) => json(res, 200, exportBody('queued', null)),
        (_r, res) => json(res, 500, { message: 'Server Error' }),
        (_r, res) => json(res, 200, exportBody('done', file)),
      ),
    );
    const seen: (string | undefined)[] = [];
    const finished = await clientOf(server).statements.waitForExport('exp_9', {
      interval: 10,
      onStatus: (status) => seen.push(status),
    });
    expect(finished.url).toBe(file);
    expect(seen).toEqual(['queued', 'done']);
    expect(server.requests).toHaveLength(3);
  });
});

describe('a wait that ends leaves nothing running', () => {
  it('lets the process exit at once after an abort mid-sleep and after a timeout', async () => {
    const server = await stub((_r, res) => json(res, 200, statusBody('requested')));
    // Default timeout (10 minutes) and a minute between polls: a timer left behind would hold the
    // process far past the bound below.
    const { child, exited } = runModule(
      `
      import { PartnerClient } from 'partner-sdk';
      const client = new PartnerClient({ baseUrl: process.env.BASE, clientToken: 't', logLevel: 'off' });
      const controller = new AbortController();
      const aborted = await client.refunds
        .waitForCompletion('tx_1', { interval: 60_000, signal: controller.signal, onStatus: () => controller.abort() })
        .catch((e) => e.name);
      const timedOut = await client.refunds
        .waitForCompletion('tx_1', { interval: 60_000, timeout: 200 })
        .catch((e) => e.name);
      console.log(JSON.stringify({ aborted, timedOut }));
      `,
      { BASE: server.baseUrl },
    );
    const result = await withTimeout(exited, 15_000, 'the child to exit').finally(() =>
      child.kill('SIGKILL'),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      aborted: 'APIUserAbortError',
      timedOut: 'PollTimeoutError',
    });
  });
});
