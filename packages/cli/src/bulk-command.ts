/**
 * Running a bulk job from the command line: journal, dry run, progress bar, Ctrl-C, one output
 * line per item and the exit code.
 *
 * @module
 */

import type { Command } from 'commander';
import {
  type BulkJob,
  type BulkOptions,
  type BulkOutcome,
  type BulkSummary,
  FileJournal,
  JournalMismatchError,
} from 'partner-sdk/bulk';
import { type Context, EXIT, UsageError } from './context';
import { outcomeJson, outcomeText, ProgressBar, summaryText } from './output';

/** The options every bulk command takes. */
export interface BulkFlags {
  journal?: string;
  jobId?: string;
  concurrency?: string;
  dryRun?: boolean;
  retryFailed?: boolean;
}

/** Adds the bulk options to a command. */
export function withBulkOptions(command: Command): Command {
  return command
    .option(
      '--journal <file>',
      'record each item in FILE; run again with it to resume without duplicates',
    )
    .option('--job-id <id>', 'the job id inside the journal (default: the command name)')
    .option('--concurrency <n>', 'requests in flight at the start (adapts to 429/503)', '4')
    .option('--retry-failed', 'on resume, try again the items that failed before')
    .option('--dry-run', 'validate every item and send nothing');
}

function concurrencyOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256) {
    throw new UsageError(`--concurrency must be a whole number from 1 to 256, got "${value}"`);
  }
  return n;
}

/**
 * Runs the job `start` builds, printing each outcome, and returns the exit code: 0 when every
 * item is done (or valid), 1 when some failed, 130 when stopped by a signal.
 */
export async function runBulkCommand<I, R>(
  context: Context,
  flags: BulkFlags,
  defaultJob: string,
  start: (options: BulkOptions) => BulkJob<I, R>,
  describe: (result: R) => string,
  resultJson: (result: R) => unknown = (result) => result,
  onOutcome?: (outcome: BulkOutcome<I, R>) => void,
): Promise<number> {
  const store = flags.journal && !flags.dryRun ? await FileJournal.open(flags.journal) : undefined;
  const stop = new AbortController();
  const onSignal = () => stop.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const bar = context.io.stderr.isTTY ? new ProgressBar(context.io.stderr) : undefined;
  let summary: BulkSummary;
  try {
    const job = start({
      concurrency: concurrencyOf(flags.concurrency),
      dryRun: flags.dryRun,
      retryFailed: flags.retryFailed,
      signal: stop.signal,
      journal: store ? { store, job: flags.jobId ?? defaultJob } : undefined,
      onProgress: bar ? (progress) => bar.update(progress) : undefined,
    });
    for await (const outcome of job) {
      onOutcome?.(outcome);
      bar?.clear();
      context.line(
        context.json
          ? JSON.stringify(outcomeJson(outcome, (value) => resultJson(value as R)))
          : outcomeText(outcome, (value) => describe(value as R)),
      );
    }
    summary = await job;
  } catch (error) {
    if (error instanceof JournalMismatchError) throw new UsageError(error.message);
    throw error;
  } finally {
    bar?.clear();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await store?.close();
  }
  if (!context.json) context.note(summaryText(summary));
  if (summary.aborted) return EXIT.interrupted;
  return summary.failed > 0 ? EXIT.failed : EXIT.ok;
}
