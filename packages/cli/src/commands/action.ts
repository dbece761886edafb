/** The wrapper every command's action goes through: builds the context, maps errors to exit codes. */

import type { Command } from 'commander';
import type { Context } from '../context';

/** Wraps a command's action: `(context, ...commander arguments) → exit code or nothing (0)`. */
// biome-ignore lint/suspicious/noExplicitAny: commander hands actions untyped arguments.
export type Action = <A extends any[]>(
  // biome-ignore lint/suspicious/noConfusingVoidType: an action may return nothing (exit code 0).
  action: (context: Context, ...args: A) => Promise<number | undefined | void>,
) => (...args: [...A, Command]) => Promise<void>;
