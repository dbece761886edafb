/**
 * Errors in CLI terms, as `docs/bulk-and-cli.md` promises them: on stderr, one `{"error": {…}}`
 * record in JSON (a pipe, `--json`), whatever went wrong, parse errors of the command line
 * included; naming the flag or variable to fix; and nothing sent when the command line is wrong.
 */

import { describe, expect, it } from 'vitest';
import { jsonLines, useCliKit } from './run-cli';

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

  it('a command line commander refuses is one line naming the problem and --help on a table format', async () => {
    const result = await run(['--format', 'table', 'products', 'list', '--bogus']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--bogus'");
    expect(result.stderr).toContain('--help');
  });
});
