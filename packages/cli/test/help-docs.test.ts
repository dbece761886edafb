/**
 * `--help` and the CLI guide say the same: every option each command's help lists is in the
 * guide's "Options by command" table for that command, every option the table names is in that
 * command's help, every exit code the help lists is in the guide's table, and every option the
 * guide's CLI section names anywhere is an option of some command.
 */

import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_ARGS } from './run-cli';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const GUIDE = new URL('../../../docs/bulk-and-cli.md', import.meta.url);

/** Each command's `--help`, by its path (`''` for the program), printed by one process. */
function helpsOf(commands: string[][]): Promise<Record<string, string>> {
  const args = [
    ...CLI_ARGS.slice(0, 2),
    'packages/cli/test/print-helps.ts',
    JSON.stringify(commands),
  ];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
      (error, out) => (error ? reject(error) : resolve(JSON.parse(out) as Record<string, string>)),
    );
  });
}

/** The lines of a help's `title:` section, up to the next blank line. */
function section(help: string, title: string): string[] {
  const lines = help.split('\n');
  const start = lines.indexOf(`${title}:`);
  if (start === -1) return [];
  const end = lines.findIndex((line, i) => i > start && line.trim() === '');
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

/** The subcommands a help lists, `help` aside. */
const commandsOf = (help: string) =>
  section(help, 'Commands')
    .map((line) => /^ {2}([a-z][a-z-]*)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');

/** The flags of a help's options (`-v`, `--version`…), `--help` aside. */
const optionsOf = (help: string) =>
  section(help, 'Options')
    .map((line) => /^ {2}(-[^ ].*?)(?: {2,}|$)/.exec(line)?.[1] ?? '')
    .flatMap((flags) => flags.match(/--?[a-z][a-z-]*/g) ?? [])
    .filter((flag) => flag !== '--help' && flag !== '-h')
    .sort();

/** Every command path that runs (not a group of commands), with its help; `''` is the program. */
async function everyCommand(): Promise<Map<string, string>> {
  const root = (await helpsOf([[]]))[''] ?? '';
  const groups = await helpsOf(commandsOf(root).map((name) => [name]));
  const subs = Object.entries(groups).flatMap(([group, help]) =>
    commandsOf(help).map((sub) => [group, sub]),
  );
  const leaves = await helpsOf(subs);
  const all = new Map<string, string>([['', root]]);
  for (const [name, help] of Object.entries(groups))
    if (commandsOf(help).length === 0) all.set(name, help);
  for (const [name, help] of Object.entries(leaves)) all.set(name, help);
  return all;
}

/** The guide's CLI section, and its "Options by command" table as command → flags. */
async function guide(): Promise<{ cli: string; table: Map<string, string[]> }> {
  const text = await readFile(GUIDE, 'utf8');
  const cli = text.slice(text.indexOf('## The `partner-sdk` command line'));
  const rows = cli
    .slice(cli.indexOf('### Options by command'), cli.indexOf('### Exit codes'))
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| command'));
  const table = new Map<string, string[]>();
  for (const row of rows) {
    const [, names = '', options = ''] = row.split(/ \| |^\| /);
    const flags = [...options.matchAll(/`([^`]*)`/g)]
      .flatMap(([, code]) => code!.match(/(?<![\w-])--?[a-z][a-z-]*/g) ?? [])
      .sort();
    const commands = names.startsWith('(every command)')
      ? ['']
      : [...names.matchAll(/`([^`]+)`/g)].map(([, name]) => name!);
    for (const command of commands) table.set(command, flags);
  }
  return { cli, table };
}

describe('partner-sdk --help and the CLI guide', { timeout: 120_000 }, () => {
  it("list the same options for every command, and the guide names only the CLI's options", async () => {
    const [commands, { cli, table }] = await Promise.all([everyCommand(), guide()]);
    expect(commands.size).toBeGreaterThan(20);
    for (const [command, help] of commands) {
      expect(table.get(command), `"${command}" in the guide's table`).toEqual(optionsOf(help));
    }
    expect([...table.keys()].filter((command) => !commands.has(command))).toEqual([]);
    const known = new Set(['--help', ...[...commands.values()].flatMap(optionsOf)]);
    // curl's and docker's options, named to say what an option is like.
    const others = new Set(['--max-time', '--env-file']);
    const named = new Set(cli.match(/(?<![\w-])--[a-z][a-z-]*/g));
    expect([...named].filter((flag) => !known.has(flag) && !others.has(flag))).toEqual([]);
  });

  it('list the same exit codes', async () => {
    const [{ cli }, helps] = await Promise.all([guide(), helpsOf([[]])]);
    const root = helps[''] ?? '';
    const help = root.slice(root.indexOf('Exit codes:')).split('\n\n')[0]!;
    const inHelp = [...help.matchAll(/(?:^|\s|·)(\d{1,3}) [a-z]/gm)].map(([, code]) =>
      Number(code),
    );
    const exits = cli.slice(cli.indexOf('### Exit codes'));
    const inGuide = [...exits.matchAll(/^\| (\d+) \|/gm)].map(([, code]) => Number(code));
    expect(new Set(inHelp)).toEqual(new Set(inGuide));
    expect(inGuide).toEqual([0, 1, 2, 3, 4, 5, 130, 141]);
  });
});
