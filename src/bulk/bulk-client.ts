/**
 * The client a bulk operation calls through: the job's own, or a seller's (`client.forUser`) for
 * an item carrying `sellerToken`, and the recording the job shares with it.
 *
 * @module
 */

import { optionsOf, type PartnerClient, type SellerClient } from '../client';
import { RequestValidationError } from '../core/errors';
import type { BulkOptions } from './types';

/** A client a bulk job calls through: the root client, or a seller client from `forUser`. */
export type BulkClient = PartnerClient | SellerClient;

/** `options` with the job recording where its client's calls do, unless it says otherwise. */
export function onClientTelemetry<O extends BulkOptions>(client: BulkClient, options: O): O {
  if (options.telemetry !== undefined) return options;
  return { ...options, telemetry: optionsOf(client).telemetry };
}

/** Per-seller clients of one job, the most recent few kept. */
export function sellerClients(client: BulkClient): (token: string | undefined) => BulkClient {
  const cache = new Map<string, BulkClient>();
  return (token) => {
    if (token === undefined) return client;
    let seller = cache.get(token);
    if (!seller) {
      if (!('forUser' in client)) {
        throw new RequestValidationError('Invalid bulk item', [
          {
            path: ['sellerToken'],
            message:
              'a seller client cannot act for another seller: run the job on the root client',
            code: 'invalid_client',
          },
        ]);
      }
      seller = client.forUser(token);
      if (cache.size >= 64) cache.delete(cache.keys().next().value!);
      cache.set(token, seller);
    }
    return seller;
  };
}

export const hashOf = (item: string | { transactionHash: string }): string =>
  typeof item === 'string' ? item : item?.transactionHash;
export const tokenOf = (item: unknown): string | undefined =>
  typeof item === 'object' && item !== null
    ? (item as { sellerToken?: string }).sellerToken
    : undefined;

/**
 * The item's seller token is usable: a non-empty string, and the job's client can act for it (a
 * seller client cannot act for another seller), so a dry run fails what the real run would.
 */
export function checkSellerToken(
  item: unknown,
  clientFor: (token: string | undefined) => BulkClient,
): void {
  const token = tokenOf(item);
  if (token !== undefined && (typeof token !== 'string' || token === '')) {
    throw new RequestValidationError('Invalid bulk item', [
      { path: ['sellerToken'], message: 'expected a non-empty string', code: 'invalid_type' },
    ]);
  }
  clientFor(token);
}
