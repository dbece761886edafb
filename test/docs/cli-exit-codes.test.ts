/**
 * The CLI's exit codes, as scripts test them: the table of the bulk guide and the `--help` of the
 * command name the same codes.
 */

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/doc-snippets';

/** The codes of the guide's "Exit codes" table. */
function guideCodes(): number[] {
  const text = readFileSync(`${ROOT}docs/bulk-and-cli.md`, 'utf8');
  const from = text.indexOf('### Exit codes');
  const table = text.slice(from, text.indexOf('\n### ', from + 1));
  return [...table.matchAll(/^\| (\d+) \|/gm)].map((match) => Number(match[1]));
}

/** The codes the `--help` footer names, from "Exit codes:" to the examples. */
function helpCodes(): number[] {
  const help = execFileSync(
    process.execPath,
    ['--import', './packages/cli/test/register.ts', 'packages/cli/src/bin.ts', '--help'],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
  );
  const from = help.indexOf('Exit codes:');
  const section = help.slice(from, help.indexOf('Examples:', from));
  return [...section.matchAll(/(?:^|·|:|\n)\s*(\d+) [a-z]/g)].map((match) => Number(match[1]));
}

describe('the CLI exit codes', () => {
  it('are the same in the bulk guide and in partner-sdk --help', { timeout: 60_000 }, () => {
    const guide = guideCodes();
    expect(guide).toEqual([0, 1, 2, 3, 4, 5, 130, 141]);
    expect(helpCodes().sort((a, b) => a - b)).toEqual(guide);
  });
});
