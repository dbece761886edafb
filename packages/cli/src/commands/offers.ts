/**
 * Offers (spec §4.6): update one offer, or many from a file as a bulk job.
 *
 * @module
 */

import { Command } from 'commander';
import type { Offer } from 'partner-sdk';
import { type OfferUpdateItem, updateOffers } from 'partner-sdk/bulk';
import { runBulkCommand, withBulkOptions } from '../bulk-command';
import { UsageError } from '../context';
import { csvFields, csvValue, jsonArgument, linesOf } from '../input';
import { fields } from '../output';
import type { Action } from './action';

/**
 * Offer updates from a file: JSON lines (`{"productHash","offerCode","params":{…}}`, or the spec's
 * `product_hash`/`offer_code` beside the fields), or CSV with a header row naming `product_hash`,
 * `offer_code` and the fields to set (`price`, `allow_pix`…; numbers and booleans as such).
 */
async function* offerUpdatesFrom(
  file: string,
  stdin: NodeJS.ReadableStream,
): AsyncGenerator<OfferUpdateItem> {
  let header: string[] | undefined;
  let lineNumber = 0;
  for await (const raw of linesOf(file, stdin)) {
    lineNumber++;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('{')) {
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(line);
      } catch {
        throw new UsageError(`${file}:${lineNumber}: not valid JSON`);
      }
      const { productHash, offerCode, params, product_hash, offer_code, ...rest } = value;
      yield {
        productHash: String(productHash ?? product_hash ?? ''),
        offerCode: String(offerCode ?? offer_code ?? ''),
        params: (params ?? rest) as OfferUpdateItem['params'],
      };
      continue;
    }
    const cells = csvFields(line);
    if (!header) {
      header = cells;
      if (!header.includes('product_hash') || !header.includes('offer_code')) {
        throw new UsageError(`${file}: the CSV header must name product_hash and offer_code`);
      }
      continue;
    }
    const row: Record<string, unknown> = {};
    header.forEach((name, i) => {
      const value = csvValue(cells[i] ?? '');
      if (value !== undefined) row[name] = value;
    });
    const { product_hash, offer_code, ...params } = row;
    yield {
      productHash: String(product_hash ?? ''),
      offerCode: String(offer_code ?? ''),
      params: params as OfferUpdateItem['params'],
    };
  }
}

export function offersCommand(run: Action): Command {
  const offers = new Command('offers').description('offers of products (spec §4.6)');
  withBulkOptions(
    offers
      .command('update [productHash] [offerCode]')
      .description(
        'update one offer (--data), or many from --file (JSON lines or CSV): PUT /products/{hash}/offers/{code}',
      )
      .option('--data <json>', 'the settings as JSON, @file or @- (stdin)')
      .option('--file <file>', 'offer updates, JSON lines or CSV; - for stdin'),
  ).action(
    run(
      async (context, productHash: string | undefined, offerCode: string | undefined, options) => {
        if (options.file !== undefined) {
          if (productHash !== undefined || options.data !== undefined) {
            throw new UsageError('give one offer (arguments and --data) or --file, not both');
          }
          const client = context.caller;
          return runBulkCommand(
            context,
            options,
            'offers.update',
            (bulk) => updateOffers(client, offerUpdatesFrom(options.file, context.io.stdin), bulk),
            (offer: Offer) => `price ${offer.price}`,
          );
        }
        if (productHash === undefined || offerCode === undefined || options.data === undefined) {
          throw new UsageError(
            'offers update needs <productHash> <offerCode> --data JSON, or --file',
          );
        }
        const params = await jsonArgument(options.data, context.io.stdin, '--data');
        if (options.dryRun) {
          return runBulkCommand(
            context,
            options,
            'offers.update',
            (bulk) => updateOffers(context.caller, [{ productHash, offerCode, params }], bulk),
            (offer: Offer) => `price ${offer.price}`,
          );
        }
        const offer = await context.caller.offers.update(productHash, offerCode, params);
        context.print(offer, (o) => fields(o));
      },
    ),
  );
  return offers;
}
