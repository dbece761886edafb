/**
 * The `partner-sdk` program: global options, one command per documented operation, and the
 * mapping of every failure to an exit code.
 *
 * @module
 */

import { Command, CommanderError } from 'commander';
import { VERSION } from 'partner-sdk';
import {
  anticipationsCommand,
  bankAccountsCommand,
  feeTiersCommand,
  productsCommand,
  usersCommand,
} from './commands/account';
import { type Action, examples, groupExamples } from './commands/action';
import { completionCommand } from './commands/completion';
import { loginCommand } from './commands/login';
import { mockCommand } from './commands/mock';
import { offersCommand } from './commands/offers';
import { refundsCommand } from './commands/refunds';
import { statementsCommand } from './commands/statements';
import { triggerCommand, webhooksCommand } from './commands/webhooks';
import { Context, EXIT, type GlobalOptions, type Io } from './context';
import { formatOf } from './format';
import { interruptible } from './interrupt';
import { report } from './report';
import { CLI_VERSION } from './version';

const HELP_FOOTER = `
Output: tables on a terminal; JSON lines (one object per line, a bulk job ending with a
  {"summary": …} record) when stdout is not a terminal (a pipe or a file); --format forces one.

Credentials, as for the SDK's client: PARTNER_API_BASE_URL, PARTNER_API_CLIENT_ID,
  PARTNER_API_CLIENT_SECRET (or PARTNER_API_CLIENT_TOKEN), and PARTNER_API_SELLER_TOKEN (or
  --seller-token-file FILE, or --seller-token, which shell history and ps show) for calls made
  for a seller; or a profile saved by partner-sdk login
  (~/.config/partner-sdk/profiles.json, mode 0600) chosen with --profile NAME or
  PARTNER_SDK_PROFILE. Try it offline: partner-sdk mock prints the variables.

Exit codes: 0 all done · 1 the call or some items failed · 2 usage error (nothing sent)
            3 the --journal is in use by another run (nothing sent)
            4 a bad line in input streamed from stdin (the items before it may have been sent)
            5 refunds request refused a transaction already refunded (--again refunds it once more)
            130 interrupted by Ctrl-C, SIGTERM or SIGHUP (a --journal job resumes where it stopped)
            141 stdout or stderr closed by its reader (| head)
${examples([
  'partner-sdk login',
  'partner-sdk products list --per-page 10',
  'partner-sdk refunds request --file cohort.csv --journal cohort.jsonl | jq -c "select(.status == \\"failed\\")"',
  'partner-sdk trigger subscription_ended --to http://127.0.0.1:3000/webhooks',
])}`;

/**
 * Commander's own errors (an unknown option, a missing argument) as every other error: one
 * `{"error": …}` record in JSON, so a script reading stderr can parse it; else its line and where
 * to look. The format comes from the options parsed so far: a bad `--format` falls back to text.
 */
function commanderErrors(io: Io, program: () => Command) {
  return (text: string, write: (text: string) => void) => {
    let json = false;
    try {
      json = formatOf(program().opts<GlobalOptions>(), io.stdout.isTTY === true) === 'json';
    } catch {
      // a bad --format: its own error follows; this one is text
    }
    const message = text.trim().replace(/^error: /, '');
    if (!json) return write(`${text.trimEnd()}\n(add --help for usage)\n`);
    write(`${JSON.stringify({ error: { name: 'UsageError', message } })}\n`);
  };
}

function createProgram(io: Io): Command {
  const program: Command = new Command('partner-sdk')
    .description('The Partner Integration API from the command line (partner-sdk)')
    .version(`${CLI_VERSION} (partner-sdk ${VERSION})`, '-v, --version')
    .option(
      '--format <format>',
      'table, json (JSON lines) or csv (default: table on a terminal, else json)',
    )
    .option('--json', 'the same as --format json')
    .option('--profile <name>', 'use the credentials saved by partner-sdk login under NAME')
    .option(
      '--request-timeout <seconds>',
      'give up on a call to the service after this long, its retries included (default: 30 s an attempt, 120 s in all), and on the receiver trigger and replay send to (default 30 s)',
    )
    .option(
      '--seller-token <token>',
      "act for this seller (the user's public_token); shown in shell history and ps, so prefer PARTNER_API_SELLER_TOKEN or --seller-token-file",
    )
    .option(
      '--seller-token-file <file>',
      'act for the seller whose token FILE holds (its whitespace trimmed), e.g. <(pass show seller)',
    )
    .option(
      '--trace',
      'OpenTelemetry spans of the calls: JSON lines on stderr, or OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set',
    )
    .option(
      '--verbose',
      "the SDK's log on stderr: each request and answer, headers and bodies redacted (secrets never shown)",
    )
    .addHelpText('after', HELP_FOOTER)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: commanderErrors(io, () => program),
    })
    .exitOverride();
  return program;
}

/**
 * A failure to write stdout. A reader that stops reading (`| head`) ends the command quietly, as
 * Unix tools do. A terminal that went away (a closed window, a dropped SSH session: EIO) leaves
 * nothing to show, and its SIGHUP stops the command gracefully, so that a bulk job's requests in
 * flight end journaled: exiting here would abandon them. Any other (a full disk) fails it with its
 * cause in one line, as any failure is reported, rather than a stack trace. A journaled job
 * resumes where it stopped.
 */
function onStdoutError(io: Io, program: () => Command) {
  return (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(141);
    if (error.code === 'EIO' && io.stdout.isTTY === true) return;
    const message = `cannot write to stdout: ${error.code ?? error.message}`;
    let json = false;
    try {
      json = formatOf(program().opts<GlobalOptions>(), io.stdout.isTTY === true) === 'json';
    } catch {
      // a bad --format: text
    }
    const record = JSON.stringify({ error: { name: error.name, message } });
    io.stderr.write(json ? `${record}\n` : `partner-sdk: ${message}\n`);
    process.exit(EXIT.failed);
  };
}

/** Every command, each reporting its parse errors as the program does; a group's help ends with examples. */
function addCommands(program: Command, run: Action): void {
  for (const command of [
    loginCommand(run),
    usersCommand(run),
    bankAccountsCommand(run),
    productsCommand(run),
    offersCommand(run),
    refundsCommand(run),
    statementsCommand(run),
    anticipationsCommand(run),
    feeTiersCommand(run),
    triggerCommand(run),
    webhooksCommand(run),
    mockCommand(run),
    completionCommand(run, () => program),
  ]) {
    program.addCommand(command.exitOverride().configureOutput(program.configureOutput()));
    for (const sub of command.commands)
      sub.exitOverride().configureOutput(program.configureOutput());
    if (command.commands.length > 0) {
      const names = command.commands.map((sub) => sub.name());
      command.addHelpText('after', () => groupExamples(command.name(), names));
    }
  }
}

/**
 * A failure to write stderr: a reader gone (`--verbose 2>&1 | head`) ends the command quietly, as
 * on stdout. Any other (a full disk under a log file) leaves nowhere to say so; the command goes
 * on, its output on stdout being what it is run for.
 */
function onStderrError(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') process.exit(141);
}

/** Runs the CLI with `argv` (without node and the script) and resolves with the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  let code: number = EXIT.ok;
  const program = createProgram(io);
  io.stdout.on(
    'error',
    onStdoutError(io, () => program),
  );
  io.stderr.on('error', onStderrError);
  const run: Action =
    (action) =>
    async (...args) => {
      let context: Context | undefined;
      // The OpenTelemetry SDK loads only for --trace: every other command starts without it.
      const stopTracing = program.opts<GlobalOptions>().trace
        ? await (await import('./trace')).startTracing(io)
        : undefined;
      try {
        context = new Context(io, program.opts<GlobalOptions>());
        await context.loadProfile();
        await context.loadSellerTokenFile();
        const ready = context;
        const result = await interruptible(() => action(ready, ...(args.slice(0, -1) as never)));
        code = typeof result === 'number' ? result : EXIT.ok;
      } catch (error) {
        code = report(io, context, error);
      } finally {
        await stopTracing?.();
      }
    };

  addCommands(program, run);

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
