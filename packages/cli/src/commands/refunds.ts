/**
 * Refunds (spec §4.2, §4.3): request (a bulk job), list, status, wait (a bulk job).
 *
 * @module
 */

import { Command } from 'commander';
import type { PartnerClient, RefundRequestResult, RefundStatus, SellerClient } from 'partner-sdk';
import { AlreadyRefundedError, requestRefunds, waitForRefunds } from 'partner-sdk/bulk';
import { type BulkFlags, runBulkCommand, WAIT_CONCURRENCY, withBulkOptions } from '../bulk-command';
import { type Context, EXIT, UsageError } from '../context';
import { fields } from '../format';
import { hashArgument, hashInput } from '../input';
import {
  type QueueFlags,
  refuseInProcessFlags,
  refuseQueueFlagsAlone,
  runQueueCommand,
  withQueueOptions,
} from '../queue-command';
import { type Action, examples } from './action';

const describeRequest = (result: RefundRequestResult) =>
  result.kind === 'accepted'
    ? 'refund requested (processing)'
    : `refund ${result.refund.hash} ${result.refund.status}`;

interface RequestFlags extends BulkFlags, QueueFlags {
  file?: string;
  reason?: string;
  observation?: string;
  fraudConfirmed?: boolean;
  cancelSubscription?: boolean;
  wait?: boolean;
  again?: boolean;
}

/**
 * The refund flags (`--reason`…) checked as the SDK checks them, once, before any hash is read or
 * sent: a bad one is a usage error (exit 2) however many hashes follow, not a failure of each.
 */
async function checkRefundFlags(
  client: PartnerClient | SellerClient,
  params: Record<string, unknown>,
): Promise<void> {
  // A stand-in hash: only the flags are judged here; each real hash is checked as the job reads it.
  const check = requestRefunds(client, ['trx_flags'], { dryRun: true, params, telemetry: false });
  for await (const outcome of check) if (outcome.status === 'failed') throw outcome.error;
}

/** `--timeout` (seconds) as poll options take it: milliseconds, at most what a timer can wait. */
function timeoutOf(value: string): number {
  const ms = Number(value) * 1000;
  if (!(ms >= 1 && ms <= 2_147_483_647)) {
    throw new UsageError(
      `--timeout must be a number of seconds from 0.001 to 2147483, got "${value}"`,
    );
  }
  return ms;
}

/** `refunds request`: the refunds as a bulk job (one from an argument prints its result), then `--wait`. */
async function requestAction(context: Context, hashes: string[], options: RequestFlags) {
  refuseQueueFlagsAlone(options);
  const params = {
    reason: options.reason,
    observation: options.observation,
    fraud_confirmed: options.fraudConfirmed,
    cancel_subscription: options.cancelSubscription === false ? false : undefined,
  };
  if (options.queue) return queueRequests(context, hashes, options, params);
  const client = context.caller;
  await checkRefundFlags(client, params);
  const input = await hashInput(hashes, options.file, context.io.stdin);
  // The job's refunds, for --wait: requested or found in progress by this run or, resumed, by an
  // earlier one (which may have stopped before its wait).
  const requested: string[] = [];
  const failures = { refused: 0, other: 0 };
  const done = await runBulkCommand(context, options, {
    job: 'refunds.request',
    total: input.total,
    single: hashes.length === 1 && !options.wait,
    // A rerun from a shell's history, without its journal, must not refund a cohort twice.
    start: (bulk, items) =>
      requestRefunds(client, items(input.items), {
        ...bulk,
        params,
        unlessRefunded: !options.again,
      }),
    describe: describeRequest,
    onOutcome: (outcome) => {
      if (outcome.status === 'failed') {
        failures[outcome.error instanceof AlreadyRefundedError ? 'refused' : 'other'] += 1;
      }
      // An item an earlier run failed and this one skipped is still a failure: never exit 5 over it.
      if (outcome.status === 'skipped' && outcome.previous.state === 'failed') failures.other += 1;
      const madeNow = outcome.status === 'succeeded' || outcome.status === 'existing';
      const madeBefore = outcome.status === 'skipped' && outcome.previous.state !== 'failed';
      if (options.wait && (madeNow || madeBefore)) requested.push(outcome.key);
    },
  });
  // Refused items alone are told apart from failures: nothing went wrong, nothing was sent.
  const refusedOnly = done === EXIT.failed && failures.other === 0 && failures.refused > 0;
  const code = refusedOnly ? EXIT.alreadyRefunded : done;
  if (!options.wait || options.dryRun || code === EXIT.interrupted) return code;
  const waited = await runBulkCommand(
    context,
    { concurrency: WAIT_CONCURRENCY },
    {
      job: 'refunds.wait',
      total: requested.length,
      start: (bulk) => waitForRefunds(client, requested, bulk),
      graceMs: 0,
      describe: (status: RefundStatus) => `refund ${status.status}`,
    },
  );
  return worstExit(code, waited);
}

/** The exit code of a request followed by its waits: a stop first, then a failure, then a refusal. */
function worstExit(...codes: number[]): number {
  const order = [EXIT.interrupted, EXIT.failed, EXIT.alreadyRefunded];
  return order.find((code) => codes.includes(code)) ?? Math.max(...codes);
}

/** `refunds request --queue`: the refunds enqueued as BullMQ jobs for the partner's workers. */
async function queueRequests(
  context: Context,
  hashes: string[],
  options: RequestFlags,
  params: Record<string, unknown>,
): Promise<number> {
  refuseInProcessFlags({ ...options });
  const input = await hashInput(hashes, options.file, context.io.stdin);
  const given = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
  // Each job carries the guard (or --again), whatever its worker's own option says.
  const job = { params: given, unlessRefunded: !options.again };
  const items: { transactionHash: string; params: Record<string, unknown> }[] = [];
  for await (const transactionHash of input.items) items.push({ transactionHash, ...job });
  return runQueueCommand(context, options, {
    enqueue: async (queue, options) =>
      (await import('partner-sdk/bullmq')).enqueueRefunds(queue, items, options),
  });
}

/** `refunds wait --queue`: the waits enqueued as BullMQ jobs for the partner's workers. */
async function queueWaits(
  context: Context,
  hashes: string[],
  options: QueueFlags & { file?: string },
): Promise<number> {
  refuseInProcessFlags({ ...options });
  const input = await hashInput(hashes, options.file, context.io.stdin);
  const items: { transactionHash: string }[] = [];
  for await (const transactionHash of input.items) items.push({ transactionHash });
  return runQueueCommand(context, options, {
    enqueue: async (queue, options) =>
      (await import('partner-sdk/bullmq')).enqueueRefundWaits(queue, items, options),
  });
}

function waitCommand(run: Action): Command {
  return withQueueOptions(
    withBulkOptions(
      new Command('wait')
        .argument('[hashes...]')
        .description('wait until each refund is completed or failed (polls its status)')
        .option('--file <file>', 'hashes, one per line or CSV (first column); - for stdin')
        // No default of commander's: a --timeout given with --queue is told apart, and refused.
        .option('--timeout <seconds>', 'give up on a refund after this long (default: 600)'),
      WAIT_CONCURRENCY,
    ),
  )
    .addHelpText(
      'after',
      examples([
        'partner-sdk refunds wait trx_9Fh2Kd81',
        'partner-sdk refunds wait --file cohort.csv --timeout 1800',
      ]),
    )
    .action(
      run(async (context, hashes: string[], options) => {
        refuseQueueFlagsAlone(options);
        if (options.queue) return queueWaits(context, hashes, options);
        const timeout = timeoutOf(options.timeout ?? '600');
        const client = context.caller;
        const input = await hashInput(hashes, options.file, context.io.stdin);
        return runBulkCommand(context, options, {
          job: 'refunds.wait',
          total: input.total,
          start: (bulk, items) =>
            waitForRefunds(client, items(input.items), {
              ...bulk,
              pollOptions: { timeout },
            }),
          describe: (status: RefundStatus) => `refund ${status.status}`,
          graceMs: 0,
        });
      }),
    );
}

export function refundsCommand(run: Action): Command {
  const refunds = new Command('refunds').description('refunds of transactions (spec §4.2, §4.3)');

  withQueueOptions(
    withBulkOptions(
      refunds
        .command('request [hashes...]')
        .description(
          'request a refund of each transaction (arguments, --file or stdin): POST /financial/refund/{hash}',
        )
        .option('--file <file>', 'hashes, one per line or CSV (first column); - for stdin')
        .option('--reason <text>', 'reason (max 1000 characters)')
        .option('--observation <text>', 'note stored with each refund')
        .option('--fraud-confirmed', 'the refunds are motivated by confirmed fraud')
        .option('--no-cancel-subscription', 'keep the subscription linked to each transaction')
        .option('--wait', 'then wait for each refund to end (completed or failed)')
        .option(
          '--again',
          'refund even a transaction already refunded (a completed refund): a second refund; without it such a transaction is refused (exit 5; with --queue, its job fails)',
        ),
    ),
  )
    .addHelpText(
      'after',
      examples([
        'partner-sdk refunds request trx_9Fh2Kd81 --reason "Duplicate charge"',
        'partner-sdk refunds request --file cohort.csv --journal cohort.jsonl --reason "Cohort cancelled"',
        'cut -d, -f1 sales.csv | partner-sdk refunds request --wait > outcomes.jsonl',
        'partner-sdk refunds request --file cohort.csv --queue refunds --redis redis://127.0.0.1:6379 --follow',
      ]),
    )
    .action(run((context, hashes: string[], options) => requestAction(context, hashes, options)));

  refunds
    .command('list <transactionHash>')
    .description("a transaction's refunds: GET /financial/refund/{hash}")
    .addHelpText('after', examples(['partner-sdk refunds list trx_9Fh2Kd81 --format csv']))
    .action(
      run(async (context, hash: string) => {
        const list = await context.caller.refunds.list(hashArgument('transactionHash', hash));
        context.rows(list as never[], ['hash', 'status', 'amount', 'created_at', 'observation']);
      }),
    );

  refunds
    .command('status <transactionHash>')
    .description("the status of a transaction's refund: GET /financial/refund/{hash}/status")
    .addHelpText('after', examples(['partner-sdk refunds status trx_9Fh2Kd81']))
    .action(
      run(async (context, hash: string) => {
        const status = await context.caller.refunds.retrieveStatus(
          hashArgument('transactionHash', hash),
        );
        context.print(status, (s) => fields(s));
      }),
    );

  refunds.addCommand(waitCommand(run));
  return refunds;
}
