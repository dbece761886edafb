/**
 * Running a bulk job from the command line: journal, dry run, progress bar, Ctrl-C, one output
 * record per item, a summary, and the exit code.
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
import { fields } from './format';
import { onInterrupt } from './interrupt';
import { markInDoubt, outcomeDetail, outcomeJson, outcomeText, summaryText } from './output';
import { type ProgressBar, progressBar } from './progress';
import { GracefulStop, STOP_GRACE_MS } from './stopping';

/** A job's items as handed out until a stop is asked for (see {@link GracefulStop}). */
export type ItemGate = <T>(source: Iterable<T> | AsyncIterable<T>) => AsyncIterable<T>;

/** The options every bulk command takes. */
export interface BulkFlags {
  journal?: string;
  jobId?: string;
  concurrency?: string;
  dryRun?: boolean;
  retryFailed?: boolean;
}

/**
 * The concurrency a bulk job starts at unless `--concurrency` says: requests sent one after
 * another (refund requests, offer updates) start low and rise as the service answers.
 */
export const START_CONCURRENCY = '4';

/**
 * The concurrency a wait starts at: each item holds its place for the whole wait while it polls
 * with back-off (mostly idle, reads only), so a low start would make a cohort wait in slow batches.
 * The bulk job's own ceiling (`maxConcurrency`), which 429s still halve.
 */
export const WAIT_CONCURRENCY = '16';

/** Adds the bulk options to a command, `--concurrency` starting at `concurrency` unless given. */
export function withBulkOptions(command: Command, concurrency = START_CONCURRENCY): Command {
  return command
    .option(
      '--journal <file>',
      'record each item in FILE; run again with it to resume without duplicates',
    )
    .option('--job-id <id>', 'the job id inside the journal (default: the command name)')
    .option('--concurrency <n>', 'requests in flight at the start (adapts to 429/503)', concurrency)
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
 * Refuses `--job-id` and `--retry-failed` without `--journal`: they name a job in a journal and the
 * items it recorded as failed, so without one the run would go ahead as if they were not given.
 * Refuses an empty `--job-id` too.
 */
function refuseJournalFlagsAlone(flags: BulkFlags): void {
  // An empty id is most often an unset variable (`--job-id "$JOB"`): a job nobody meant to name.
  if (flags.jobId !== undefined && flags.jobId.trim() === '') {
    throw new UsageError('--job-id must name the job (it is empty): nothing sent');
  }
  if (flags.journal) return;
  for (const [given, name] of [
    [flags.jobId !== undefined, '--job-id'],
    [flags.retryFailed === true, '--retry-failed'],
  ] as const) {
    if (given) throw new UsageError(`${name} applies only with --journal FILE: nothing sent`);
  }
}

/**
 * Opens `--journal`. One it cannot use is a usage error naming it, before anything is sent: not a
 * journal, a newer version's, or a file that cannot be opened (its code, not the lock's file name).
 * Another run's lock stays a {@link JournalLockedError} (exit 3).
 */
async function openJournal(file: string): Promise<FileJournal> {
  try {
    return await FileJournal.open(file);
  } catch (error) {
    if (error instanceof JournalMismatchError) throw new UsageError(error.message);
    // A system call's failure (ENOENT, EACCES, EROFS, ENOSPC…), told apart by its `syscall`.
    const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
    if (typeof code === 'string' && syscall !== undefined) {
      throw new UsageError(`cannot open the journal ${file}: ${code} (nothing was sent)`);
    }
    throw error;
  }
}

/**
 * A journal that stopped taking writes mid-job (a full disk, a read-only remount) in operator
 * terms: which file, why, and how to resume. Any other failure is returned as it is.
 */
function journalFailure(error: unknown, file: string): unknown {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== 'string' || syscall === undefined) return error;
  return new Error(
    `the journal ${file} could not be written (${code}): the job stopped, and requests in flight may have reached the service. Once it can be written again, run the same command with --journal ${file}: finished items are skipped, the others reconciled before anything is sent again`,
    { cause: error },
  );
}

/** One bulk command's job and how to show its results. */
export interface BulkRun<I, R> {
  /** The job id in the journal unless `--job-id` names another. */
  job: string;
  /** How many items, when known before starting (arguments, a counted file). */
  total?: number | undefined;
  /**
   * Starts the job with the options the flags make; `items` wraps its items so that a stop asked
   * for (Ctrl-C, SIGTERM, SIGHUP) starts no new one while those in flight finish.
   */
  start: (options: BulkOptions, items: ItemGate) => BulkJob<I, R>;
  /**
   * How long the requests in flight may take to finish after a stop signal before they are
   * abandoned ({@link STOP_GRACE_MS} unless set; 0 for waits, reads with nothing to lose).
   */
  graceMs?: number;
  /** One result for people. */
  describe: (result: R) => string;
  /** Called with each outcome as it comes. */
  onOutcome?: (outcome: BulkOutcome<I, R>) => void;
  /** One item given as an argument: print its result (or its error), not a bulk summary. */
  single?: boolean;
}

/**
 * Runs the job, printing each outcome and then the summary, and returns the exit code: 0 when
 * every item is done (or valid), 1 when some failed, 130 when stopped by a signal.
 */
export async function runBulkCommand<I, R>(
  context: Context,
  flags: BulkFlags,
  run: BulkRun<I, R>,
): Promise<number> {
  const concurrency = concurrencyOf(flags.concurrency);
  refuseJournalFlagsAlone(flags);
  const store = flags.journal && !flags.dryRun ? await openJournal(flags.journal) : undefined;
  const stop = new GracefulStop();
  const bar = progressBar(context.io, run.total);
  const withdraw = onInterrupt(() => {
    const graceMs = run.graceMs ?? STOP_GRACE_MS;
    stop.request(graceMs);
    bar?.clear();
    if (graceMs > 0 && context.format !== 'json') context.note(stoppingNote(graceMs));
  });
  // A dry run always reports each item's validity as a bulk job does.
  const single = run.single === true && !flags.dryRun;
  try {
    const job = run.start(
      {
        concurrency,
        dryRun: flags.dryRun,
        retryFailed: flags.retryFailed,
        signal: stop.signal,
        total: run.total,
        journal: store ? { store, job: flags.jobId ?? run.job } : undefined,
        onProgress: bar ? (progress) => bar.update(progress) : undefined,
      },
      (source) => stop.items(source),
    );
    const { ended, failedEarlier } = await printOutcomes(
      context,
      job,
      { ...run, single },
      bar,
      store !== undefined,
    );
    bar?.clear();
    // Stopped by a signal even where every item in flight finished in the grace.
    const summary = { ...ended, aborted: ended.aborted || stop.requested };
    // An item an earlier run failed and this one skipped is not done: a script that runs the job
    // again until it exits 0 must not stop with it never refunded.
    const code = summary.failed > 0 || failedEarlier > 0 ? EXIT.failed : EXIT.ok;
    // A job of one stopped by a signal ends as any stopped job: its summary, how to resume, 130.
    if (single && !summary.aborted) return code;
    printSummary(context, summary, flags, run.total);
    return summary.aborted ? EXIT.interrupted : code;
  } catch (error) {
    if (error instanceof JournalMismatchError) throw new UsageError(error.message);
    throw store ? journalFailure(error, store.path) : error;
  } finally {
    bar?.close();
    withdraw();
    stop.dispose();
    await store?.close();
    // A read of stdin may be pending (a pipe that sends nothing): it must not hold the process.
    if (stop.requested) (context.io.stdin as { destroy?: () => void }).destroy?.();
  }
}

/** What the operator reads after a first Ctrl-C. */
function stoppingNote(graceMs: number): string {
  return `stopping: no new item is started; the requests in flight have up to ${graceMs / 1000} s to finish (Ctrl-C again to stop at once)`;
}

/**
 * Prints each outcome in the output format as it comes; resolves with the job's summary. An item
 * interrupted is said to resume with the journal only when the job has one (`journaled`).
 */
async function printOutcomes<I, R>(
  context: Context,
  job: BulkJob<I, R>,
  run: BulkRun<I, R>,
  bar: ProgressBar | undefined,
  journaled: boolean,
): Promise<{ ended: BulkSummary; failedEarlier: number }> {
  const describe = (value: unknown) => run.describe(value as R);
  let failedEarlier = 0;
  for await (const outcome of job) {
    run.onOutcome?.(outcome);
    if (outcome.status === 'skipped' && outcome.previous.state === 'failed') failedEarlier += 1;
    bar?.clear();
    if (run.single && (outcome.status === 'succeeded' || outcome.status === 'existing')) {
      context.print(outcome.result as object, (result) => fields(result));
    } else if (run.single && outcome.status === 'failed') {
      throw outcome.inDoubt ? markInDoubt(outcome.error) : outcome.error;
    } else if (context.format === 'json') {
      context.line(JSON.stringify(outcomeJson(outcome)));
    } else if (context.format === 'csv') {
      context.csvRecord({
        key: outcome.key,
        status: outcome.status,
        detail: outcomeDetail(outcome, describe, journaled),
      });
    } else {
      context.human(outcomeText(outcome, describe, journaled));
    }
  }
  // A job is a promise of its summary once its outcomes are read.
  return { ended: await job, failedEarlier };
}

/**
 * The summary: a last JSON record on stdout in JSON, a line on stderr otherwise. After an
 * interrupt it counts the items never started and says how to resume.
 */
function printSummary(
  context: Context,
  summary: BulkSummary,
  flags: BulkFlags,
  total: number | undefined,
): void {
  const notStarted = total === undefined ? undefined : Math.max(0, total - summary.total);
  let resume: string | undefined;
  if (summary.aborted) {
    resume = flags.journal
      ? `run the same command again with --journal ${flags.journal}: finished items are skipped, the rest are done`
      : 'run again with the items not done (give --journal FILE next time and a run resumes by itself, without duplicates)';
  }
  if (context.format === 'json') {
    context.line(JSON.stringify({ summary: { ...summary, notStarted, resume } }));
    return;
  }
  context.note(summaryText(summary, notStarted));
  if (summary.aborted && notStarted === undefined) {
    context.note('items not yet read from stdin were never started');
  }
  if (resume) context.note(`to resume: ${resume}`);
}
