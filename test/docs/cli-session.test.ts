/**
 * The command-line session the bulk guide shows (`docs/bulk-and-cli.md`, "A session against
 * `partner-sdk mock`") is replayed as written: every `$` line runs in bash, on a pseudo-terminal
 * as on a person's (so the output is tables and the progress bar is drawn and cleared), with
 * `partner-sdk` the CLI from source, in a temporary directory; what each command printed must be
 * what the guide shows, once what differs per run is blanked (ids the kit makes up, the port, the
 * seller's token, durations, dates). Lines are compared as sets: a bulk job prints each item as it
 * finishes. The guide's `sh` blocks install and build the package: the packed CLI installed in a
 * fresh project is `npm run test:cli-package`.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/doc-snippets';

const GUIDE = 'docs/bulk-and-cli.md';
const SECTION = '### A session against `partner-sdk mock`';
const SEPARATOR = '@@ command @@';

interface Step {
  command: string;
  output: string[];
}

/** The guide's session: each `$` command and the lines shown after it. */
function session(): Step[] {
  const text = readFileSync(`${ROOT}${GUIDE}`, 'utf8');
  const from = text.indexOf('```console', text.indexOf(SECTION));
  const block = text.slice(from, text.indexOf('\n```\n', from)).split('\n').slice(1);
  const steps: Step[] = [];
  for (const line of block) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
    else steps.at(-1)?.output.push(line);
  }
  return steps;
}

/** The session as one bash script: the kit in the background, its exports read, then each step. */
function script(steps: Step[], dir: string): string {
  const [mock, ...rest] = steps;
  if (!mock?.command.endsWith(' &')) throw new Error(`${GUIDE}: the session starts the kit with &`);
  if (!mock.command.startsWith('partner-sdk ')) throw new Error(`${GUIDE}: the kit starts first`);
  const cli = [process.execPath, '--import', `${ROOT}packages/cli/test/register.ts`];
  const bin = `${cli.join(' ')} ${ROOT}packages/cli/src/bin.ts`;
  // The kit runs as node itself, not through the shell function, so that `$!` is its own pid and
  // the kill at the end stops it: killing a function run in the background stops its subshell,
  // not the node process the subshell started, which then outlives the test.
  const kit = mock.command.slice('partner-sdk '.length, -2);
  return [
    `partner-sdk() { ${bin} "$@"; }`,
    `cd '${dir}'`,
    `${bin} ${kit} > mock.out 2>&1 &`,
    'kit=$!',
    'for i in $(seq 1 600); do grep -q Ctrl-C mock.out 2>/dev/null && break; sleep 0.1; done',
    'cat mock.out',
    `eval "$(grep '^export ' mock.out)"`,
    ...rest.flatMap((step) => [`echo '${SEPARATOR}'`, step.command]),
    'kill $kit; wait $kit 2>/dev/null',
  ].join('\n');
}

/** What a terminal shows of `text`: colours dropped, a line redrawn after `\r` read as its last form. */
function shown(text: string): string[] {
  return stripVTControlCharacters(text)
    .split('\n')
    .map((line) => line.replace(/\r$/, '').split('\r').at(-1)!);
}

/** A line with what differs per run blanked, and runs of spaces (table columns) made one. */
function comparable(line: string): string {
  return line
    .replace(/\b(trx|prd|ofr|bnk|ant|rfd|exp|sig)_[A-Za-z0-9]+/g, '$1_…')
    .replace(/'eyJ[^']*'/g, "'<token>'")
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d/g, '<date>')
    .replace(/\b\d+(\.\d+)? s\b/g, '<n> s')
    .replace(/ +/g, ' ')
    .trim();
}

const lines = (output: string[]) => output.map(comparable).filter(Boolean).sort();

describe(`the command-line session of ${GUIDE}`, () => {
  it('prints, command by command, what the guide shows', () => {
    const steps = session();
    expect(steps.length).toBeGreaterThan(5);
    const dir = mkdtempSync(join(tmpdir(), 'partner-cli-session-'));
    try {
      writeFileSync(join(dir, 'session.sh'), script(steps, dir));
      const terminal = execFileSync(
        'python3',
        [`${ROOT}packages/cli/test/on-terminal.py`, 'pipe', '--', 'bash', join(dir, 'session.sh')],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          // A dozen CLI starts: on a busy machine well over the terminal helper's default minute.
          env: { ...process.env, PTY_SECONDS: '200' },
          timeout: 220_000,
        },
      );
      const printed = terminal.split(SEPARATOR).map((part) => shown(part));
      expect(printed).toHaveLength(steps.length);
      steps.forEach((step, index) => {
        expect.soft({ command: step.command, lines: lines(printed[index]!) }).toEqual({
          command: step.command,
          lines: lines(step.output),
        });
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
