/**
 * Refunds (spec §4.2, §4.3): request (a bulk job), list, status, wait (a bulk job).
 *
 * @module
 */

import { Command } from 'commander';
import type { RefundRequestResult, RefundStatus } from 'partner-sdk';
import { requestRefunds, waitForRefunds } from 'partner-sdk/bulk';
import { runBulkCommand, withBulkOptions } from '../bulk-command';
import { EXIT } from '../context';
import { hashesFrom } from '../input';
import { fields, table } from '../output';
import type { Action } from './action';

const describeRequest = (result: RefundRequestResult) =>
  result.kind === 'accepted'
    ? 'refund requested (processing)'
    : `refund ${result.refund.hash} ${result.refund.status}`;

export function refundsCommand(run: Action): Command {
  const refunds = new Command('refunds').description('refunds of transactions (spec §4.2, §4.3)');

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
      .option('--wait', 'then wait for each refund to end (completed or failed)'),
  ).action(
    run(async (context, hashes: string[], options) => {
      const params = {
        reason: options.reason,
        observation: options.observation,
        fraud_confirmed: options.fraudConfirmed,
        cancel_subscription: options.cancelSubscription === false ? false : undefined,
      };
      const client = context.caller;
      // Refunds this run requested or found in progress, for --wait (skipped ones were waited on before).
      const requested: string[] = [];
      const code = await runBulkCommand(
        context,
        options,
        'refunds.request',
        (bulk) =>
          requestRefunds(client, hashesFrom(hashes, options.file, context.io.stdin), {
            ...bulk,
            params,
          }),
        describeRequest,
        undefined,
        (outcome) => {
          if (options.wait && (outcome.status === 'succeeded' || outcome.status === 'existing')) {
            requested.push(outcome.key);
          }
        },
      );
      if (!options.wait || options.dryRun || code === EXIT.interrupted) return code;
      const waited = await runBulkCommand(
        context,
        { concurrency: '16' },
        'refunds.wait',
        (bulk) => waitForRefunds(client, requested, bulk),
        (status: RefundStatus) => `refund ${status.status}`,
      );
      return Math.max(code, waited);
    }),
  );

  refunds
    .command('list <transactionHash>')
    .description("a transaction's refunds: GET /financial/refund/{hash}")
    .action(
      run(async (context, hash: string) => {
        const list = await context.caller.refunds.list(hash);
        if (context.json) for (const refund of list) context.line(JSON.stringify(refund));
        else
          context.line(
            table(list as never[], ['hash', 'status', 'amount', 'created_at', 'observation']),
          );
      }),
    );

  refunds
    .command('status <transactionHash>')
    .description("the status of a transaction's refund: GET /financial/refund/{hash}/status")
    .action(
      run(async (context, hash: string) => {
        const status = await context.caller.refunds.retrieveStatus(hash);
        context.print(status, (s) => fields(s));
      }),
    );

  withBulkOptions(
    refunds
      .command('wait [hashes...]')
      .description('wait until each refund is completed or failed (polls its status)')
      .option('--file <file>', 'hashes, one per line or CSV (first column); - for stdin')
      .option('--timeout <seconds>', 'give up on a refund after this long', '600'),
  ).action(
    run(async (context, hashes: string[], options) => {
      const client = context.caller;
      return runBulkCommand(
        context,
        { concurrency: '16', ...options },
        'refunds.wait',
        (bulk) =>
          waitForRefunds(client, hashesFrom(hashes, options.file, context.io.stdin), {
            ...bulk,
            pollOptions: { timeout: Number(options.timeout) * 1000 },
          }),
        (status: RefundStatus) => `refund ${status.status}`,
      );
    }),
  );
  return refunds;
}
