/**
 * `statements download --output`: the file appears whole or not at all. A download cut mid-body
 * (a dropped connection, a proxy's time-out) fails the command and leaves no partial file that
 * would pass for the statement, and an earlier file of that name is kept as it was; so does one
 * stopped by Ctrl-C or SIGTERM while the body stalls.
 */

import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type StubServer, startStub } from '../../../test/helpers/stub-server';
import { waitFor } from '../../../test/helpers/waits';
import { CLI_ARGS, cli, onTerminal } from './run-cli';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const STATEMENT = `date,amount\n${'2026-01-01,100\n'.repeat(20_000)}`;
/** A PDF's bytes as a terminal would take them: a NUL, and an escape sequence that clears it. */
const PDF = '%PDF-1.7\n\u0000\u0001\u001b[2J\u001b]0;pwned\u0007%%EOF\n';
let cut = false;
let stall = false;
let stub: StubServer;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'partner-cli-download-'));
  stub = await startStub((request, res, raw) => {
    if (request.path === '/auth') return json(res, 200, { client_token: 'ct_download_test' });
    if (request.path === '/financial/account-statement/export-report/exp_pdf') {
      return json(res, 200, {
        status: 'success',
        data: { hash: 'exp_pdf', status: 'completed', url: `${stub.origin}/files/exp_pdf.pdf` },
      });
    }
    if (raw.url === '/files/exp_pdf.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return void res.end(PDF);
    }
    if (request.path.startsWith('/financial/account-statement/export-report/')) {
      return json(res, 200, {
        status: 'success',
        data: { hash: 'exp_1', status: 'completed', url: `${stub.origin}/files/exp_1.csv` },
      });
    }
    if (request.path === '/files/exp_1.csv' || raw.url === '/files/exp_1.csv') {
      res.writeHead(200, {
        'content-type': 'text/csv',
        'content-length': String(Buffer.byteLength(STATEMENT)),
      });
      if (stall) return void res.write(STATEMENT.slice(0, STATEMENT.length / 2));
      if (!cut) return void res.end(STATEMENT);
      res.write(STATEMENT.slice(0, STATEMENT.length / 2));
      setTimeout(() => raw.socket.destroy(), 50);
      return;
    }
    json(res, 404, { message: 'not found' });
  });
});
afterAll(async () => {
  await stub?.close();
  await rm(dir, { recursive: true, force: true });
});

const env = () => ({
  PARTNER_API_BASE_URL: stub.baseUrl,
  PARTNER_API_CLIENT_ID: 'cli_download',
  PARTNER_API_CLIENT_SECRET: 'sk_download',
  PARTNER_API_CLIENT_TOKEN: undefined,
  PARTNER_API_SELLER_TOKEN: 'seller_download_token',
});

describe('partner-sdk statements download --output', { timeout: 60_000 }, () => {
  it('writes the whole file when the download completes', async () => {
    cut = false;
    const output = join(dir, 'whole.csv');
    const result = await cli(['--json', 'statements', 'download', 'exp_1', '--output', output], {
      env: env(),
    });
    expect(result.code).toBe(0);
    expect(await readFile(output, 'utf8')).toBe(STATEMENT);
  });

  it('leaves no partial file when the download is cut, and keeps an earlier file whole', async () => {
    cut = true;
    const fresh = join(dir, 'cut.csv');
    const earlier = join(dir, 'earlier.csv');
    await writeFile(earlier, 'the statement downloaded last month\n');
    for (const output of [fresh, earlier]) {
      const result = await cli(['--json', 'statements', 'download', 'exp_1', '--output', output], {
        env: env(),
      });
      expect(result.code).toBe(1);
    }
    const files = await readdir(dir);
    expect(files).not.toContain('cut.csv');
    expect(files.filter((name) => name.includes('cut') || name.includes('earlier'))).toEqual([
      'earlier.csv',
    ]);
    expect(await readFile(earlier, 'utf8')).toBe('the statement downloaded last month\n');
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'leaves no partial file when stopped by %s mid-body, exit 130',
    async (signal) => {
      stall = true;
      const output = join(dir, `stopped-${signal}.csv`);
      const child = spawn(
        process.execPath,
        [...CLI_ARGS, 'statements', 'download', 'exp_1', '--output', output],
        { cwd: ROOT, env: { ...process.env, ...env() }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      const ours = () => readdirSync(dir).filter((name) => name.includes(`stopped-${signal}`));
      try {
        // Half the body is on disk as the partial file, and the rest never comes.
        await waitFor(
          () => ours().some((name) => name.includes('.partial-')),
          'the partial file',
          30_000,
        );
        child.kill(signal);
        expect(await exited, stderr).toBe(130);
        expect(ours()).toEqual([]);
      } finally {
        stall = false;
        child.kill('SIGKILL');
      }
    },
  );
});

describe('partner-sdk statements download to stdout', { timeout: 60_000 }, () => {
  it('refuses to write the file to a terminal, naming --output FILE and --output -, nothing sent', async () => {
    const sent = stub.requests.length;
    const refused = await onTerminal(['statements', 'download', 'exp_pdf'], env(), {
      mode: 'pipe',
    });
    expect(refused.code).toBe(2);
    expect(refused.shown).not.toContain('%PDF');
    expect(refused.shown).toContain('--output FILE');
    expect(refused.shown).toContain('--output -');
    expect(stub.requests.length).toBe(sent);
  });

  it('writes it to the terminal with --output -, as asked', async () => {
    const forced = await onTerminal(['statements', 'download', 'exp_pdf', '--output', '-'], env(), {
      mode: 'pipe',
    });
    expect(forced.code).toBe(0);
    expect(forced.shown.replaceAll('\r\n', '\n')).toContain(PDF);
  });

  it('writes its bytes into a pipe, with or without --output -, and makes no file named -', async () => {
    for (const args of [[], ['--output', '-']]) {
      const piped = await cli(['statements', 'download', 'exp_pdf', ...args], { env: env() });
      expect(piped.code, args.join(' ')).toBe(0);
      expect(piped.stdout, args.join(' ')).toBe(PDF);
    }
    expect(existsSync(join(ROOT, '-'))).toBe(false);
  });
});
