/**
 * `--queue`: a bulk command's items enqueued as BullMQ jobs for a partner's workers instead of
 * run in this process, the batch id printed, and with `--follow` the batch followed with the
 * progress bar until each job completed or failed. BullMQ and a Redis client (`ioredis`, else
 * `redis`) are loaded only here: a missing one is a usage error naming the package.
 *
 * @module
 */

import type { Command } from 'commander';
import type { EnqueuedBatch, QueueProgress } from 'partner-sdk/bullmq';
import { type Context, EXIT, UsageError } from './context';
import { onInterrupt } from './interrupt';
import { plural } from './output';
import { progressBar } from './progress';

/** The queue options of a bulk command. */
export interface QueueFlags {
  queue?: string;
  redis?: string;
  follow?: boolean;
  sellerRef?: string;
}

/**
 * Adds `--queue`, `--redis`, `--follow` and `--seller-ref` to a bulk command. A queued command's
 * items run on the workers at the workers' own concurrency, so the in-process start
 * (`--concurrency`'s default) is dropped when `--queue` is given: only a `--concurrency` typed on
 * the command line is left for {@link refuseInProcessFlags} to refuse.
 */
export function withQueueOptions(command: Command): Command {
  return command
    .hook('preAction', (queued) => {
      if (
        queued.getOptionValue('queue') &&
        queued.getOptionValueSource('concurrency') === 'default'
      )
        queued.setOptionValue('concurrency', undefined);
    })
    .option(
      '--queue <name>',
      'enqueue the items as BullMQ jobs on queue NAME for your workers, instead of running them here; prints the batch id',
    )
    .option('--redis <url>', 'the Redis of the queue (default: REDIS_URL)')
    .option(
      '--follow',
      'with --queue: follow the batch until every job is done (exit code by outcome)',
    )
    .option(
      '--seller-ref <ref>',
      "with --queue: mark every job for seller REF, a reference of your own (never a token), for workers that pick the seller's client by it",
    );
}

/**
 * Refuses `--follow` and `--redis` without `--queue`: they describe a queue, so a command given
 * one without it was meant for the workers, and running the items in this process instead would
 * be a surprise (a refund is not taken back).
 */
export function refuseQueueFlagsAlone(flags: QueueFlags): void {
  if (flags.queue) return;
  if (flags.follow) throw new UsageError('--follow applies only with --queue NAME: nothing sent');
  for (const [flag, given] of [
    ['--redis', flags.redis],
    ['--seller-ref', flags.sellerRef],
  ] as const) {
    if (given !== undefined)
      throw new UsageError(`${flag} applies only with --queue NAME: nothing sent`);
  }
}

/** Refuses the bulk flags that describe an in-process run, which `--queue` replaces. */
export function refuseInProcessFlags(flags: Record<string, unknown>): void {
  for (const flag of [
    'journal',
    'dryRun',
    'wait',
    'retryFailed',
    'jobId',
    'timeout',
    'concurrency',
  ]) {
    if (flags[flag]) {
      const name = flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      throw new UsageError(
        `--queue runs the items on your BullMQ workers: --${name} does not apply`,
      );
    }
  }
}

/** A queue's modules, loaded on demand. */
interface Loaded {
  bullmq: typeof import('bullmq');
  redis: unknown;
  close: () => Promise<unknown>;
}

async function loadRedis(url: string): Promise<{ client: unknown; close: () => Promise<unknown> }> {
  try {
    const { Redis } = await import('ioredis');
    const client = new Redis(url, { maxRetriesPerRequest: 1 });
    return { client, close: () => client.quit() };
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  try {
    const { createClient } = await import('redis');
    const client = await createClient({ url }).connect();
    return { client, close: () => client.close() };
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  throw new UsageError('--queue needs a Redis client package: npm install ioredis (or redis)');
}

const isMissing = (error: unknown) =>
  (error as { code?: string })?.code === 'ERR_MODULE_NOT_FOUND' ||
  (error as { code?: string })?.code === 'MODULE_NOT_FOUND';

async function load(url: string): Promise<Loaded> {
  let bullmq: typeof import('bullmq');
  try {
    bullmq = await import('bullmq');
  } catch (error) {
    if (!isMissing(error)) throw error;
    throw new UsageError('--queue needs the `bullmq` package: npm install bullmq');
  }
  const { client, close } = await loadRedis(url);
  return { bullmq, redis: client, close };
}

/** The URL schemes of a Redis: `rediss://` over TLS, as the Redis client libraries read them. */
const REDIS_SCHEMES = new Set(['redis:', 'rediss:']);

function connectionOf(url: string) {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {}
  if (!parsed || !REDIS_SCHEMES.has(parsed.protocol) || !/^\/?\d*$/.test(parsed.pathname)) {
    // Its user and password (redis://user:password@host) stay out of the terminal and the logs.
    const shown = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1[REDACTED]@');
    throw new UsageError(`--redis must be a redis:// or rediss:// URL, got "${shown}"`);
  }
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username || undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: Number(parsed.pathname.slice(1) || 0),
    // The queue's own connection speaks TLS when the URL says so, as the batch's record does.
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

/** What a queued bulk command enqueues. */
export interface QueueRun {
  /**
   * Enqueues the items on `queue`, the batch recorded with `options.redis` and its jobs marked for
   * `options.seller` when given. Called once bullmq and the Redis client have loaded: import
   * `partner-sdk/bullmq` here, not before, as it imports bullmq itself and would fail on a missing
   * one without naming the package to install.
   */
  enqueue: (queue: never, options: { redis: never; seller?: string }) => Promise<EnqueuedBatch>;
}

/**
 * Enqueues the items, prints the batch, and with `--follow` follows it: exit 0 when every job
 * completed, 5 when the only failures are transactions already refunded, 1 when others failed,
 * 130 when interrupted.
 */
export async function runQueueCommand(
  context: Context,
  flags: QueueFlags,
  run: QueueRun,
): Promise<number> {
  const url = flags.redis ?? process.env.REDIS_URL;
  if (!url)
    throw new UsageError('--queue needs the Redis of the queue: --redis <url> or REDIS_URL');
  const connection = connectionOf(url);
  const loaded = await load(url);
  const queue = new loaded.bullmq.Queue(flags.queue!, { connection });
  try {
    const options = { redis: loaded.redis as never, seller: flags.sellerRef };
    const batch = await run.enqueue(queue as never, options);
    if (context.format === 'json') {
      context.line(JSON.stringify({ batch: { ...batch, queue: flags.queue } }));
    } else {
      context.line(batch.batchId);
      context.note(
        `enqueued ${plural(batch.jobs, 'job')} on queue ${flags.queue} (batch ${batch.batchId})`,
      );
    }
    if (!flags.follow) return EXIT.ok;
    return await follow(context, queue, batch, loaded.redis);
  } finally {
    await queue.close();
    await loaded.close();
  }
}

/** The failures by error, for the summary line: ` (2 NotFoundError, 1 AlreadyRefundedError)`. */
function reasonsOf(failedBy: Record<string, number>): string {
  const parts = Object.entries(failedBy).map(([name, n]) => `${n} ${name}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/**
 * 0 when every job completed; 5 when the only failures are transactions refused as already
 * refunded (nothing was sent for them), as the in-process run tells them apart; else 1.
 */
function exitOf(failed: number, failedBy: Record<string, number>): number {
  if (failed === 0) return EXIT.ok;
  return failedBy.AlreadyRefundedError === failed ? EXIT.alreadyRefunded : EXIT.failed;
}

/**
 * The batch's summary; once following stopped (Ctrl-C), as far as it was read, with the jobs the
 * workers still have (`left`): stopping the follower stops no worker.
 */
function printSummary(
  context: Context,
  batchId: string,
  progress: QueueProgress,
  stopped: boolean,
): void {
  const { completed, failed } = progress;
  const failedBy = progress.failedBy ?? {};
  const left = progress.waiting + progress.active;
  const summary = { batch: batchId, completed, failed, failedBy, ...(stopped ? { left } : {}) };
  if (context.format === 'json') {
    context.line(JSON.stringify({ summary }));
    return;
  }
  const counts = `${completed} completed, ${failed} failed${reasonsOf(failedBy)}`;
  context.note(
    stopped
      ? `stopped following batch ${batchId}: ${counts}, ${plural(left, 'job')} left to the workers`
      : counts,
  );
}

async function follow(
  context: Context,
  queue: unknown,
  batch: EnqueuedBatch,
  redis: unknown,
): Promise<number> {
  const { followBatch } = await import('partner-sdk/bullmq');
  const stop = new AbortController();
  const onSignal = () => stop.abort(new Error('interrupted'));
  const withdraw = onInterrupt(onSignal);
  const bar = progressBar(context.io, batch.jobs);
  let seen: QueueProgress | undefined;
  try {
    const last: QueueProgress = await followBatch(queue as never, batch.batchId, {
      redis: redis as never,
      intervalMs: 500,
      signal: stop.signal,
      onProgress: (progress) => {
        seen = progress;
        bar?.update(progress);
      },
    });
    bar?.clear();
    printSummary(context, batch.batchId, last, false);
    return exitOf(last.failed, last.failedBy ?? {});
  } catch (error) {
    if (!stop.signal.aborted) throw error;
    bar?.clear();
    if (seen) printSummary(context, batch.batchId, seen, true);
    return EXIT.interrupted;
  } finally {
    bar?.close();
    withdraw();
  }
}
