/**
 * Offers (spec §4.6): update one offer, or many from a file as a bulk job.
 *
 * @module
 */

import { Command } from 'commander';
import type { Offer, PartnerClient, SellerClient } from 'partner-sdk';
import { type OfferUpdateItem, updateOffers } from 'partner-sdk/bulk';
import { type BulkFlags, runBulkCommand, withBulkOptions } from '../bulk-command';
import { type Context, UsageError } from '../context';
import { csvFields, csvValue, hashArgument, jsonArgument, type Line, linesOf } from '../input';
import { errorText } from '../output';
import {
  type QueueFlags,
  refuseInProcessFlags,
  refuseQueueFlagsAlone,
  runQueueCommand,
  withQueueOptions,
} from '../queue-command';
import { type Action, examples } from './action';

/** One offer update and the input line it came from. */
interface NumberedUpdate {
  item: OfferUpdateItem;
  line: number;
}

function fromJsonLine(text: string, where: string): OfferUpdateItem {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${where}: not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${where}: not a JSON object`);
  }
  const { productHash, offerCode, params, product_hash, offer_code, sellerToken, ...rest } = value;
  // A line naming its seller is sent as that seller (one file for many sellers), never as the
  // run's own seller: the SDK's item carries the token, the journal never holds it.
  if (sellerToken !== undefined && (typeof sellerToken !== 'string' || sellerToken === '')) {
    throw new UsageError(`${where}: sellerToken must be a non-empty string`);
  }
  return {
    productHash: String(productHash ?? product_hash ?? ''),
    offerCode: String(offerCode ?? offer_code ?? ''),
    params: (params ?? rest) as OfferUpdateItem['params'],
    ...(sellerToken === undefined ? {} : { sellerToken }),
  };
}

/**
 * Columns that are text whatever they look like: an offer code `1.50` or `007`, a product hash of
 * digits, an offer named `2024` are never numbers.
 */
const TEXT_COLUMNS = new Set(['product_hash', 'offer_code', 'name']);

function fromCsvRow(header: string[], cells: string[]): OfferUpdateItem {
  // No prototype: a column named `__proto__` is a field like any other (refused as unknown), not
  // a way to set the row's prototype and vanish.
  const row: Record<string, unknown> = Object.create(null);
  header.forEach((name, i) => {
    const cell = cells[i] ?? '';
    const value = TEXT_COLUMNS.has(name) ? cell || undefined : csvValue(cell);
    if (value !== undefined) row[name] = value;
  });
  const { product_hash, offer_code, ...params } = row;
  return {
    productHash: String(product_hash ?? ''),
    offerCode: String(offer_code ?? ''),
    params: params as OfferUpdateItem['params'],
  };
}

/**
 * Every offer update of a file (or stdin), read whole before anything is sent: JSON lines
 * (`{"productHash","offerCode","params":{…}}`, or the spec's `product_hash`/`offer_code` beside the
 * fields), or CSV with a header row naming `product_hash`, `offer_code` and the fields to set
 * (`price`, `allow_pix`…; numbers and booleans as such). A bad line is a usage error naming it.
 */
async function offerUpdatesFrom(file: string, stdin: NodeJS.ReadableStream) {
  const where = file === '-' ? 'stdin' : file;
  const updates: NumberedUpdate[] = [];
  let header: string[] | undefined;
  for await (const { text, number } of linesOf(file, stdin) as AsyncIterable<Line>) {
    const line = text.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('{')) {
      updates.push({ item: fromJsonLine(line, `${where}:${number}`), line: number });
    } else if (!header) {
      header = csvFields(line);
      if (!header.includes('product_hash') || !header.includes('offer_code')) {
        throw new UsageError(
          `${where}:${number}: the CSV header must name product_hash and offer_code`,
        );
      }
    } else {
      updates.push({ item: fromCsvRow(header, csvFields(line)), line: number });
    }
  }
  return updates;
}

/**
 * Checks every update as the SDK would send it (a dry run) before the real run sends any: the
 * first bad one is a usage error naming its line, so nothing is sent.
 */
async function checkAll(
  client: PartnerClient | SellerClient,
  updates: NumberedUpdate[],
  where: string,
): Promise<void> {
  const lines = new Map(updates.map(({ item, line }) => [item, line]));
  const job = updateOffers(
    client,
    updates.map((u) => u.item),
    { dryRun: true },
  );
  for await (const outcome of job) {
    if (outcome.status === 'failed') {
      const line = lines.get(outcome.item);
      throw new UsageError(`${where}:${line}: ${errorText(outcome.error)} (nothing was sent)`);
    }
  }
}

interface UpdateFlags extends BulkFlags, QueueFlags {
  data?: string;
  file?: string;
}

async function updateManyAction(context: Context, options: UpdateFlags & { file: string }) {
  const client = context.caller;
  if (options.queue) refuseInProcessFlags({ ...options });
  const updates = await offerUpdatesFrom(options.file, context.io.stdin);
  if (!options.dryRun)
    await checkAll(client, updates, options.file === '-' ? 'stdin' : options.file);
  if (options.queue) return queueUpdates(context, options, updates);
  return runBulkCommand(context, options, {
    job: 'offers.update',
    total: updates.length,
    start: (bulk, items) => updateOffers(client, items(updates.map((u) => u.item)), bulk),
    describe: (offer: Offer) => `price ${offer.price}`,
  });
}

/** `offers update --file --queue`: the checked updates enqueued as BullMQ jobs. */
async function queueUpdates(context: Context, options: UpdateFlags, updates: NumberedUpdate[]) {
  if (updates.some((u) => u.item.sellerToken !== undefined)) {
    throw new UsageError(
      '--queue carries no seller token into Redis: mark the jobs with --seller-ref for workers that pick the seller by it, or run one queue per seller',
    );
  }
  const items = updates.map(({ item }) => ({
    productHash: item.productHash,
    offerCode: item.offerCode,
    params: item.params,
  }));
  return runQueueCommand(context, options, {
    enqueue: async (queue, options) =>
      (await import('partner-sdk/bullmq')).enqueueOfferUpdates(queue, items, options),
  });
}

async function updateAction(
  context: Context,
  productHash: string | undefined,
  offerCode: string | undefined,
  options: UpdateFlags,
) {
  refuseQueueFlagsAlone(options);
  if (options.file !== undefined) {
    if (productHash !== undefined || options.data !== undefined) {
      throw new UsageError('give one offer (arguments and --data) or --file, not both');
    }
    return updateManyAction(context, { ...options, file: options.file });
  }
  if (productHash === undefined || offerCode === undefined || options.data === undefined) {
    throw new UsageError('offers update needs <productHash> <offerCode> --data JSON, or --file');
  }
  hashArgument('productHash', productHash);
  hashArgument('offerCode', offerCode);
  const params = await jsonArgument(options.data, context.io.stdin, '--data');
  // A job of one, as `refunds request HASH` runs: `--journal` records it (a run again skips it)
  // and the offer is printed as a single call prints it.
  return runBulkCommand(context, options, {
    job: 'offers.update',
    total: 1,
    start: (bulk) => updateOffers(context.caller, [{ productHash, offerCode, params }], bulk),
    describe: (offer: Offer) => `price ${offer.price}`,
    single: true,
  });
}

export function offersCommand(run: Action): Command {
  const offers = new Command('offers').description('offers of products (spec §4.6)');
  withQueueOptions(
    withBulkOptions(
      offers
        .command('update [productHash] [offerCode]')
        .description(
          'update one offer (--data), or many from --file (JSON lines or CSV, checked whole before anything is sent): PUT /products/{hash}/offers/{code}',
        )
        .option('--data <json>', 'the settings as JSON, @file or @- (stdin)')
        .option('--file <file>', 'offer updates, JSON lines or CSV; - for stdin'),
    ),
  )
    .addHelpText(
      'after',
      examples([
        `partner-sdk offers update prd_Xk29aLq0 ofr_Bq81Zp3c --data '{"price":4990}'`,
        'partner-sdk offers update --file prices.csv --journal prices.jsonl',
        'partner-sdk offers update --file prices.csv --dry-run',
        'partner-sdk offers update --file prices.csv --queue offers --follow',
      ]),
    )
    .action(run(updateAction));
  return offers;
}
