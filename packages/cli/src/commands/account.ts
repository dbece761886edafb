/**
 * Single calls: users update (§4.1), bank-accounts update (§4.5), products get/list (§4.9,
 * §4.10), anticipations confirm/list (§4.7, §4.8), fee-tiers history (§4.11).
 *
 * @module
 */

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Command } from 'commander';
import { toFile } from 'partner-sdk';
import type { Context } from '../context';
import { UsageError } from '../context';
import { fields } from '../format';
import { hashArgument, jsonArgument } from '../input';
import { type Action, examples } from './action';

/** Pages of a list: one page (`--page`, `--per-page`) or every item (`--all`). */
async function printList<T extends object>(
  context: Context,
  list: AsyncIterable<T> & PromiseLike<{ data: T[] }>,
  all: boolean | undefined,
  columns: string[],
): Promise<void> {
  const items: T[] = [];
  if (all) {
    for await (const item of list) {
      // JSON lines stream as pages come; a table or CSV needs every row first.
      if (context.json) context.line(JSON.stringify(item));
      else items.push(item);
    }
  } else {
    items.push(...(await list).data);
  }
  if (!context.json || !all) context.rows(items as Record<string, unknown>[], columns);
}

/**
 * A page flag's value: a whole number from 1 to `max` (the spec's bound, when it gives one), else
 * a usage error naming the flag, before the SDK's own check would name its parameter instead.
 */
function positiveInt(
  name: string,
  value: string | undefined,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? '≥ 1' : `from 1 to ${max}`;
    throw new UsageError(`${name} must be a whole number ${range}, got "${value}"`);
  }
  return n;
}

async function fileFor(path: string) {
  try {
    return toFile(await readFile(path), basename(path));
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

export function usersCommand(run: Action): Command {
  const users = new Command('users').description("a seller's profile (spec §4.1)");
  users
    .command('update')
    .description('update the seller profile (multipart): POST /users/update')
    .requiredOption('--data <json>', 'the profile as JSON, @file or @- (stdin)')
    .option('--avatar <file>', 'photo to upload')
    .option('--emancipated-document <file>', 'document of an emancipated minor')
    .addHelpText(
      'after',
      examples([
        'partner-sdk users update --data @profile.json --avatar photo.png',
        // The whole profile: the spec requires name and address on every update.
        'partner-sdk users update --data @- --seller-token-file seller-token.txt < profile.json',
      ]),
    )
    .action(
      run(
        async (
          context,
          options: { data: string; avatar?: string; emancipatedDocument?: string },
        ) => {
          const params = await jsonArgument(options.data, context.io.stdin, '--data');
          if (options.avatar) params.avatar = await fileFor(options.avatar);
          if (options.emancipatedDocument) {
            params.emancipated_document = await fileFor(options.emancipatedDocument);
          }
          const user = await context.seller.users.update(params as never);
          context.print(user, (u) => fields(u));
        },
      ),
    );
  return users;
}

export function bankAccountsCommand(run: Action): Command {
  const accounts = new Command('bank-accounts').description('bank accounts (spec §4.5)');
  accounts
    .command('update <accountHash>')
    .description('update a bank account: POST /users/bank-accounts/{hash}')
    .requiredOption('--data <json>', 'the fields as JSON, @file or @- (stdin)')
    .addHelpText(
      'after',
      examples([
        `partner-sdk bank-accounts update bnk_7Hq2Lx9P --data '{"pix_key":"maria@example.com"}'`,
      ]),
    )
    .action(
      run(async (context, accountHash: string, options: { data: string }) => {
        const params = await jsonArgument(options.data, context.io.stdin, '--data');
        const account = await context.caller.bankAccounts.update(
          hashArgument('accountHash', accountHash),
          params as never,
        );
        context.print(account, (a) => fields(a));
      }),
    );
  return accounts;
}

export function productsCommand(run: Action): Command {
  const products = new Command('products').description('products (spec §4.9, §4.10)');
  products
    .command('get <productHash>')
    .description('read one product: GET /products/{hash}')
    .addHelpText(
      'after',
      examples([
        'partner-sdk products get prd_Xk29aLq0',
        'partner-sdk products get prd_Xk29aLq0 --format json | jq .metadata',
      ]),
    )
    .action(
      run(async (context, hash: string) => {
        const product = await context.caller.products.retrieve(hashArgument('productHash', hash));
        context.print(product, (p) => fields(p));
      }),
    );
  products
    .command('list')
    .description('list products: GET /products')
    .option('--page <n>', 'page number (1 to 999)')
    .option('--per-page <n>', 'page size (1 to 50)')
    .option('--all', 'every product of every page')
    .addHelpText(
      'after',
      examples([
        'partner-sdk products list --per-page 50',
        'partner-sdk products list --all --format csv > products.csv',
      ]),
    )
    .action(
      run(async (context, options: { page?: string; perPage?: string; all?: boolean }) => {
        const list = context.caller.products.list({
          page: positiveInt('--page', options.page, 999),
          per_page: positiveInt('--per-page', options.perPage, 50),
        });
        await printList(context, list, options.all, ['hash', 'name', 'type', 'status']);
      }),
    );
  return products;
}

export function anticipationsCommand(run: Action): Command {
  const anticipations = new Command('anticipations').description(
    'balance anticipations (spec §4.7, §4.8)',
  );
  anticipations
    .command('confirm <anticipationHash>')
    .description('confirm a calculated anticipation: POST /financial/anticipation/confirm/{hash}')
    .requiredOption('--scenario <scenario>', '"above" or "below"')
    .addHelpText(
      'after',
      examples(['partner-sdk anticipations confirm ant_Cf1Hq8Lm --scenario above']),
    )
    .action(
      run(async (context, hash: string, options: { scenario: string }) => {
        const confirmed = await context.caller.anticipations.confirm(
          hashArgument('anticipationHash', hash),
          {
            scenario: options.scenario as 'above',
          },
        );
        context.print(confirmed, (c) => fields(c));
      }),
    );
  anticipations
    .command('list')
    .description('anticipation history: GET /financial/anticipation')
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'page size (1 to 100)')
    .option('--all', 'every anticipation of every page')
    .addHelpText('after', examples(['partner-sdk anticipations list --all --format csv']))
    .action(
      run(async (context, options: { page?: string; perPage?: string; all?: boolean }) => {
        const list = context.caller.anticipations.list({
          page: positiveInt('--page', options.page),
          per_page: positiveInt('--per-page', options.perPage, 100),
        });
        await printList(context, list as never, options.all, [
          'hash',
          'status',
          'amount',
          'fee',
          'net_value',
          'created_at',
        ]);
      }),
    );
  return anticipations;
}

export function feeTiersCommand(run: Action): Command {
  const feeTiers = new Command('fee-tiers').description('fee tiers (spec §4.11)');
  feeTiers
    .command('history')
    .description('history of fee-tier changes: GET /users/fee-tiers/history')
    .addHelpText(
      'after',
      examples(['partner-sdk fee-tiers history', 'partner-sdk fee-tiers history --format json']),
    )
    .action(
      run(async (context) => {
        const history = await context.caller.feeTiers.history();
        context.rows(history as never[], [
          'action',
          'changed_by.email',
          'created_at',
          'observation',
        ]);
      }),
    );
  return feeTiers;
}
