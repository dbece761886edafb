/**
 * Errors in CLI terms, as `docs/bulk-and-cli.md` promises them: on stderr, one `{"error": {…}}`
 * record in JSON (a pipe, `--json`), whatever went wrong, parse errors of the command line
 * included; naming the flag or variable to fix; and nothing sent when the command line is wrong.
 */

import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_ARGS, jsonLines, useCliKit } from './run-cli';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const kit = useCliKit('errors');
const { mock, run } = kit;

describe('partner-sdk errors', { timeout: 90_000 }, () => {
  it('a command line commander refuses is one {"error"} record on stderr in JSON, exit 2, nothing sent', async () => {
    const before = mock.stats.requests;
    const cases = [
      ['products', 'list', '--bogus'],
      ['nope'],
      ['trigger', 'subscription_ended'],
      ['anticipations', 'confirm', 'ant_Cf1Hq8Lm'],
    ];
    for (const args of cases) {
      const result = await run(['--json', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout, args.join(' ')).toBe('');
      const [record, ...rest] = jsonLines(result.stderr);
      expect(rest, args.join(' ')).toEqual([]);
      const error = record?.error as { name: string; message: string };
      expect(error.name, args.join(' ')).toBe('UsageError');
      expect(error.message, args.join(' ')).toMatch(/--bogus|nope|--to|--scenario/);
    }
    expect(mock.stats.requests).toBe(before);
  });

  it("the CLI's own usage errors are named UsageError in JSON, as commander's are", async () => {
    for (const args of [
      ['--seller-token-file', 'no-such-file', 'products', 'list'],
      ['products', 'list', '--per-page', 'abc'],
      ['refunds', 'request', 'has space'],
    ]) {
      const result = await run(['--json', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      const error = jsonLines(result.stderr)[0]?.error as { name: string };
      expect(error?.name, args.join(' ')).toBe('UsageError');
    }
  });

  it('a 401 without a seller token names the ways to give one, as a seller command refused before sending does', async () => {
    const hash = mock.addTransaction();
    for (const format of ['json', 'table']) {
      const result = await run(['--format', format, 'refunds', 'request', hash], '', {
        PARTNER_API_SELLER_TOKEN: undefined,
      });
      expect(result.code, format).toBe(1);
      expect(result.stderr, format).toContain('401');
      for (const way of ['PARTNER_API_SELLER_TOKEN', '--seller-token-file', '--seller-token']) {
        expect(result.stderr, format).toContain(way);
      }
      expect(result.stderr, format).not.toContain('forUser');
    }
    // A bulk job's failed items say the same, in their JSON outcome.
    const bulk = await run(['--json', 'refunds', 'request', hash, mock.addTransaction()], '', {
      PARTNER_API_SELLER_TOKEN: undefined,
    });
    expect(bulk.code).toBe(1);
    const failed = jsonLines(bulk.stdout).filter((line) => line.status === 'failed');
    expect(failed).toHaveLength(2);
    for (const line of failed) {
      expect((line.error as { message: string }).message).toContain('PARTNER_API_SELLER_TOKEN');
    }
    // With a token given, a 401 is the token's or the credentials' fault: no hint to give one.
    const refused = await run(['--format', 'table', 'refunds', 'request', hash], '', {
      PARTNER_API_SELLER_TOKEN: 'not-a-seller-token',
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toContain('set PARTNER_API_SELLER_TOKEN');
  });

  it('a statements export day that is not a real day names its flag, exit 2, nothing sent', async () => {
    const before = mock.stats.requests;
    for (const [flag, args] of [
      ['--from', ['--from', '2026-13-01', '--to', '2026-01-31']],
      ['--to', ['--from', '2026-02-01', '--to', '2026-02-30']],
    ] as const) {
      const result = await run(['--format', 'table', 'statements', 'export', ...args]);
      expect(result.code, flag).toBe(2);
      expect(result.stderr, flag).toContain(flag);
      expect(result.stderr, flag).not.toContain('betweenDates');
    }
    expect(mock.stats.requests).toBe(before);
  });

  it('--follow or --redis without --queue is a usage error naming it, nothing sent (not a run in this process)', async () => {
    const hash = mock.addTransaction();
    const { hash: product, offerCode } = mock.products.course;
    const before = mock.stats.requests;
    for (const args of [
      ['refunds', 'request', hash, '--follow'],
      ['refunds', 'request', hash, '--redis', 'redis://127.0.0.1:6379'],
      ['refunds', 'wait', hash, '--follow'],
      ['offers', 'update', product, offerCode, '--data', '{"price":4990}', '--follow'],
    ]) {
      const result = await run(['--format', 'table', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/--(follow|redis) applies only with --queue/);
    }
    expect(mock.stats.requests).toBe(before);
  });

  it('--job-id or --retry-failed without --journal is a usage error naming it, nothing sent (not a run that ignores it)', async () => {
    const hash = mock.addTransaction();
    const { hash: product, offerCode } = mock.products.course;
    const before = mock.stats.requests;
    for (const args of [
      ['refunds', 'request', hash, '--job-id', 'monday'],
      ['refunds', 'request', hash, '--retry-failed'],
      ['refunds', 'wait', hash, '--retry-failed'],
      ['offers', 'update', product, offerCode, '--data', '{"price":4990}', '--job-id', 'x'],
    ]) {
      const result = await run(['--format', 'table', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(
        /--(job-id|retry-failed) applies only with --journal FILE: nothing sent/,
      );
    }
    expect(mock.stats.requests).toBe(before);
  });

  it('an empty --job-id (an unset variable, `--job-id "$JOB"`) is a usage error naming it, nothing sent or written', async () => {
    const hash = mock.addTransaction();
    const journal = join(kit.dir, 'empty-job.jsonl');
    const before = mock.stats.requests;
    for (const id of ['', '  ']) {
      const result = await run([
        '--format',
        'table',
        'refunds',
        'request',
        hash,
        '--journal',
        journal,
        '--job-id',
        id,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--job-id must name the job');
    }
    expect(mock.stats.requests).toBe(before);
    expect(existsSync(journal)).toBe(false);
  });

  it('a page flag past the spec bound names the flag and its range, exit 2, nothing sent', async () => {
    const before = mock.stats.requests;
    for (const [args, named] of [
      [['products', 'list', '--per-page', '51'], '--per-page must be a whole number from 1 to 50'],
      [['products', 'list', '--page', '1000'], '--page must be a whole number from 1 to 999'],
      [
        ['anticipations', 'list', '--per-page', '101'],
        '--per-page must be a whole number from 1 to 100',
      ],
    ] as const) {
      const result = await run(['--format', 'table', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain(named);
    }
    expect(mock.stats.requests).toBe(before);
  });

  it('a --concurrency outside 1 to 256 names the flag and its range, exit 2, nothing sent', async () => {
    const hash = mock.addTransaction();
    const before = mock.stats.requests;
    for (const value of ['0', '257', '1.5', 'four']) {
      for (const command of [
        ['refunds', 'request'],
        ['refunds', 'wait'],
      ]) {
        const result = await run(['--format', 'table', ...command, hash, '--concurrency', value]);
        expect(result.code, `${command.join(' ')} ${value}`).toBe(2);
        expect(result.stderr).toContain('--concurrency must be a whole number from 1 to 256');
      }
    }
    expect(mock.stats.requests).toBe(before);
  });

  it('a PARTNER_API_LOG that names no level is a usage error naming the variable, nothing sent; --verbose overrides it', async () => {
    const before = mock.stats.requests;
    const result = await run(['--format', 'table', 'fee-tiers', 'history'], '', {
      PARTNER_API_LOG: 'loud',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'PARTNER_API_LOG must be off, error, warn, info or debug, got "loud"',
    );
    expect(mock.stats.requests).toBe(before);
    const verbose = await run(['--verbose', 'fee-tiers', 'history'], '', {
      PARTNER_API_LOG: 'loud',
    });
    expect(verbose.code).toBe(0);
  });

  it('stdout that cannot be written (a full disk) is one line on stderr naming the cause, exit 1, no stack trace', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const child = spawn(process.execPath, [...CLI_ARGS, 'products', 'list'], {
        cwd: ROOT,
        env: Object.fromEntries(
          Object.entries({ ...process.env, ...kit.env }).filter(([, v]) => v !== undefined),
        ),
        stdio: ['ignore', full, 'pipe'],
      });
      let stderr = '';
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await new Promise((resolve) => child.on('close', resolve));
      clearTimeout(timer);
      expect(code).toBe(1);
      // Not a terminal, so JSON: one error record, as for any failure.
      expect(jsonLines(stderr)).toEqual([
        { error: { name: 'Error', message: 'cannot write to stdout: ENOSPC' } },
      ]);
    } finally {
      closeSync(full);
    }
  });

  it("a refused login or seller token names the CLI's variables and flags to check, never the SDK's options", async () => {
    const login = await run(['--format', 'table', 'fee-tiers', 'history'], '', {
      PARTNER_API_CLIENT_SECRET: 'sk_wrong',
    });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain('PARTNER_API_CLIENT_ID and PARTNER_API_CLIENT_SECRET');
    // A 401 may be the origin as much as the credentials (spec §5.6): both are named.
    expect(login.stderr).toContain(
      'and that calls come from an IP address or domain registered for this client (spec §5.6)',
    );
    expect(login.stderr).not.toMatch(/clientId|clientSecret/);
    const seller = await run(['--format', 'table', 'refunds', 'status', 'trx_9Fh2Kd81'], '', {
      PARTNER_API_SELLER_TOKEN: 'not-a-seller-token',
    });
    expect(seller.code).toBe(1);
    expect(seller.stderr).toContain(
      'PARTNER_API_SELLER_TOKEN, --seller-token-file or --seller-token',
    );
    expect(seller.stderr).not.toContain('forUser');
  });

  it('half the login credentials is a usage error naming the variable missing, nothing sent', async () => {
    const before = mock.stats.requests;
    for (const [missing, given] of [
      ['PARTNER_API_CLIENT_SECRET', 'PARTNER_API_CLIENT_ID'],
      ['PARTNER_API_CLIENT_ID', 'PARTNER_API_CLIENT_SECRET'],
    ] as const) {
      const result = await run(['--format', 'table', 'fee-tiers', 'history'], '', {
        [missing]: undefined,
      });
      expect(result.code, missing).toBe(2);
      expect(result.stderr, missing).toContain(missing);
      expect(result.stderr, missing).toContain(given);
    }
    expect(mock.stats.requests).toBe(before);
  });

  it('a --data that is no JSON object, a missing @file, --json against another --format, a parameter the SDK refuses: exit 2, nothing sent', async () => {
    const before = mock.stats.requests;
    const account = ['bank-accounts', 'update', mock.bankAccounts.pix];
    for (const [args, named] of [
      [[...account, '--data', '{bad'], '--data is not valid JSON'],
      [[...account, '--data', '[1]'], '--data must be a JSON object'],
      [[...account, '--data', '@no-such-file.json'], 'cannot read no-such-file.json'],
      [['--json', '--format', 'csv', 'fee-tiers', 'history'], '--json and --format csv disagree'],
    ] as const) {
      const result = await run([...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout, args.join(' ')).toBe('');
      expect(result.stderr, args.join(' ')).toContain(named);
    }
    const scenario = await run([
      'anticipations',
      'confirm',
      'ant_Cf1Hq8Lm',
      '--scenario',
      'sideways',
    ]);
    expect(scenario.code).toBe(2);
    expect(jsonLines(scenario.stderr)[0]?.error).toMatchObject({
      name: 'RequestValidationError',
      issues: [expect.objectContaining({ path: ['scenario'] })],
    });
    expect(mock.stats.requests).toBe(before);
  });

  it('a command line commander refuses is one line naming the problem and --help on a table format', async () => {
    const result = await run(['--format', 'table', 'products', 'list', '--bogus']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--bogus'");
    expect(result.stderr).toContain('--help');
  });
});
