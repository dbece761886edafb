/** The wrapper every command's action goes through: builds the context, maps errors to exit codes. */

import type { Command } from 'commander';
import type { Context } from '../context';

/** Wraps a command's action: `(context, ...commander arguments) → exit code or nothing (0)`. */
// biome-ignore lint/suspicious/noExplicitAny: commander hands actions untyped arguments.
export type Action = <A extends any[]>(
  // biome-ignore lint/suspicious/noConfusingVoidType: an action may return nothing (exit code 0).
  action: (context: Context, ...args: A) => Promise<number | undefined | void>,
) => (...args: [...A, Command]) => Promise<void>;

/** Every example given to {@link examples}, for the `--help` of the group commands. */
const every: string[] = [];

/** The `Examples:` section of a command's `--help`. */
export function examples(lines: string[]): string {
  every.push(...lines);
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/** The `Examples:` of a group command (`refunds`): the first example of each of its commands. */
export function groupExamples(group: string, commands: string[]): string {
  const first = commands
    .map((name) => every.find((line) => line.startsWith(`partner-sdk ${group} ${name}`)))
    .filter((line): line is string => line !== undefined);
  return `\nExamples:\n${first.map((line) => `  $ ${line}`).join('\n')}\n`;
}
