/**
 * Statement exports (spec §4.4): export, status, wait, download.
 *
 * @module
 */

import { createWriteStream, rmSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Command } from 'commander';
import type { StatementExport } from 'partner-sdk';
import type { Context } from '../context';
import { EXIT, UsageError } from '../context';
import { fields } from '../format';
import { hashArgument } from '../input';
import { onInterrupt } from '../interrupt';
import { type Action, examples } from './action';

/**
 * Writes `body` to `output` whole or not at all: into a temporary file beside it, renamed over
 * `output` once complete. A download cut mid-way, or stopped by Ctrl-C or SIGTERM, leaves no
 * partial file that would pass for the statement, and an earlier file of that name stays as it was.
 */
async function saveWhole(body: Readable, output: string): Promise<void> {
  const partial = join(dirname(output), `.${basename(output)}.partial-${process.pid}`);
  // The process ends on the signal, so the partial file goes at once, before the exit.
  const withdraw = onInterrupt(() => {
    rmSync(partial, { force: true });
    process.exit(EXIT.interrupted);
  });
  try {
    await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
    await rename(partial, output);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    withdraw();
  }
}

/** A day flag's value: a real day as YYYY-MM-DD (not 2026-02-30), else a usage error naming the flag. */
function dateArgument(name: string, value: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : undefined;
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) {
    throw new UsageError(`${name} must be a real day as YYYY-MM-DD, got "${value}"`);
  }
  return value;
}

async function waitFor(
  context: Context,
  exported: StatementExport | string,
): Promise<StatementExport> {
  const tty = context.io.stderr.isTTY;
  return context.caller.statements.waitForExport(exported, {
    onStatus: (status) => {
      if (tty && !context.json) context.note(`export ${status ?? 'pending'}…`);
    },
  });
}

/** `statements export`: requests the export, and with `--wait` waits until its file is ready. */
async function requestExport(
  context: Context,
  options: { from: string; to: string; fileFormat: string; wait?: boolean },
): Promise<void> {
  const exported = await context.caller.statements.export({
    format: options.fileFormat,
    filter: {
      betweenDates: {
        start: dateArgument('--from', options.from),
        end: dateArgument('--to', options.to),
      },
    },
  });
  const result = options.wait ? await waitFor(context, exported) : exported;
  context.print(result, (e) => fields(e));
}

/**
 * Where `statements download` writes: a file, or stdout (no `--output`, or `--output -`). Like
 * curl, it refuses a terminal unless asked with `--output -`: a file's bytes (a PDF's binary, or
 * the escape sequences a file can hold) would garble it, and the download would be lost to it.
 * Refused before anything is sent.
 */
function outputOf(context: Context, output: string | undefined): string | undefined {
  if (output === '-') return undefined;
  if (output === undefined && context.io.stdout.isTTY) {
    throw new UsageError(
      'statements download would write the file to this terminal, which its bytes can garble: give --output FILE to save it, redirect stdout (> FILE, | less), or give --output - to write it here anyway',
    );
  }
  return output;
}

/** `statements download`: the finished export's file, to `--output` whole or to stdout. */
async function download(
  context: Context,
  hash: string,
  options: { output?: string; wait?: boolean },
): Promise<void> {
  hashArgument('exportHash', hash);
  const output = outputOf(context, options.output);
  const current = options.wait
    ? await waitFor(context, hash)
    : await context.caller.statements.retrieve(hash);
  if (!current.url) {
    throw new UsageError(`export ${hash} is not ready (${current.status}): try --wait`);
  }
  const response = await context.caller.statements.download(current);
  const body = response.body ? Readable.fromWeb(response.body as never) : Readable.from([]);
  if (output) {
    await saveWhole(body, output);
    if (!context.json) context.note(`saved ${output}`);
    else context.line(JSON.stringify({ hash, output }));
  } else await pipeline(body, context.io.stdout, { end: false });
}

export function statementsCommand(run: Action): Command {
  const statements = new Command('statements').description('account statement exports (spec §4.4)');
  statements
    .command('export')
    .description('request an export: POST /financial/account-statement/export-report')
    .requiredOption('--from <date>', 'first day, YYYY-MM-DD')
    .requiredOption('--to <date>', 'last day, YYYY-MM-DD')
    .option(
      '--file-format <format>',
      "csv or pdf (the spec's examples; it does not list every format, so another is sent as given)",
      'csv',
    )
    .option('--wait', 'then wait until the file is ready')
    .addHelpText(
      'after',
      examples(['partner-sdk statements export --from 2026-01-01 --to 2026-01-31 --wait']),
    )
    .action(run(requestExport));
  statements
    .command('status <exportHash>')
    .description("an export's status")
    .addHelpText('after', examples(['partner-sdk statements status exp_8Gx2']))
    .action(
      run(async (context, hash: string) => {
        const exported = await context.caller.statements.retrieve(hashArgument('exportHash', hash));
        context.print(exported, (e) => fields(e));
      }),
    );
  statements
    .command('wait <exportHash>')
    .description('wait until an export is ready')
    .addHelpText('after', examples(['partner-sdk statements wait exp_8Gx2']))
    .action(
      run(async (context, hash: string) => {
        context.print(await waitFor(context, hashArgument('exportHash', hash)), (e) => fields(e));
      }),
    );
  statements
    .command('download <exportHash>')
    .description('download a finished export (to --output, or stdout unless a terminal)')
    .option(
      '--output <file>',
      'where to write the file; - for stdout, even a terminal (without --output, a terminal is refused)',
    )
    .option('--wait', 'wait for the export first')
    .addHelpText(
      'after',
      examples([
        'partner-sdk statements download exp_8Gx2 --output january.csv',
        'partner-sdk statements download exp_8Gx2 --wait > january.csv',
      ]),
    )
    .action(run(download));
  return statements;
}
