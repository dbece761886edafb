/**
 * The `partner-sdk` program: global options, one command per documented operation, and the
 * mapping of every failure to an exit code.
 *
 * @module
 */

import { Command, CommanderError } from 'commander';
import { PartnerError, RequestValidationError, VERSION } from 'partner-sdk';
import { JournalLockedError } from 'partner-sdk/bulk';
import {
  anticipationsCommand,
  bankAccountsCommand,
  feeTiersCommand,
  productsCommand,
  usersCommand,
} from './commands/account';
import type { Action } from './commands/action';
import { mockCommand } from './commands/mock';
import { offersCommand } from './commands/offers';
import { refundsCommand } from './commands/refunds';
import { statementsCommand } from './commands/statements';
import { Context, EXIT, type GlobalOptions, type Io, UsageError } from './context';
import { errorJson, errorText } from './output';

const HELP_FOOTER = `
Credentials come from the environment, as for the SDK's client:
  PARTNER_API_BASE_URL, PARTNER_API_CLIENT_ID, PARTNER_API_CLIENT_SECRET
  (or PARTNER_API_CLIENT_TOKEN), and PARTNER_API_SELLER_TOKEN (or --seller-token)
  for calls made for a seller. Try it offline: partner-sdk mock prints them.

Exit codes: 0 all done · 1 the call or some items failed · 2 usage error (nothing sent)
            3 the --journal is in use by another run (nothing sent)
            130 interrupted (a --journal job resumes where it stopped)`;

/** Runs the CLI with `argv` (without node and the script) and resolves with the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  let code: number = EXIT.ok;
  const program = new Command('partner-sdk')
    .description('The Partner Integration API from the command line (partner-sdk)')
    .version(VERSION, '-v, --version')
    .option('--json', 'JSON lines on stdout instead of tables')
    .option('--seller-token <token>', "act for this seller (the user's public_token)")
    .addHelpText('after', HELP_FOOTER)
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride();

  const run: Action =
    (action) =>
    async (...args) => {
      const global = program.opts<GlobalOptions>();
      const context = new Context(io, global);
      try {
        const result = await action(context, ...(args.slice(0, -1) as never));
        code = typeof result === 'number' ? result : EXIT.ok;
      } catch (error) {
        code = report(context, error);
      }
    };

  for (const command of [
    usersCommand(run),
    bankAccountsCommand(run),
    productsCommand(run),
    offersCommand(run),
    refundsCommand(run),
    statementsCommand(run),
    anticipationsCommand(run),
    feeTiersCommand(run),
    mockCommand(run),
  ]) {
    program.addCommand(command.exitOverride().configureOutput(program.configureOutput()));
    for (const sub of command.commands)
      sub.exitOverride().configureOutput(program.configureOutput());
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exitCode 0; every other parse failure is a usage error.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    throw error;
  }
  return code;
}

/** Prints a command's failure and gives its exit code. */
function report(context: Context, error: unknown): number {
  const usage = error instanceof UsageError || error instanceof RequestValidationError;
  if (context.json) context.io.stderr.write(`${JSON.stringify({ error: errorJson(error) })}\n`);
  else context.note(`partner-sdk: ${errorText(error)}`);
  if (usage) return EXIT.usage;
  if (error instanceof JournalLockedError) return EXIT.busy;
  if (error instanceof PartnerError) return EXIT.failed;
  if (!context.json) context.note((error as Error)?.stack ?? String(error));
  return EXIT.failed;
}
