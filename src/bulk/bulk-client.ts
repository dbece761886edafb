/**
 * The client a bulk operation calls through: the job's own, or a seller's (`client.forUser`) for
 * an item carrying `sellerToken`, and the recording the job shares with it.
 *
 * @module
 */

import { optionsOf, type PartnerClient, type SellerClient } from '../client';
import { RequestValidationError } from '../core/errors';
import { shownValue } from '../core/options/given';
import type { BulkOptions } from './types';

/** A client a bulk job calls through: the root client, or a seller client from `forUser`. */
export type BulkClient = PartnerClient | SellerClient;

/** Whether `value` has the methods the bulk operations call: a client, or a partner's stand-in. */
function isBulkClient(value: unknown): value is BulkClient {
  const client = value as Partial<Record<'refunds' | 'offers', Record<string, unknown>>> | null;
  return (
    typeof client === 'object' &&
    client !== null &&
    typeof client.refunds?.request === 'function' &&
    typeof client.refunds.waitForCompletion === 'function' &&
    typeof client.offers?.update === 'function'
  );
}

/**
 * Refuses, before anything else is read, a first argument that is no client (`undefined` from a
 * client not yet made, the client's options): it would fail every item with a bare `TypeError`.
 */
export function checkBulkClient(client: unknown): asserts client is BulkClient {
  if (isBulkClient(client)) return;
  throw new RequestValidationError('Invalid bulk client', [
    {
      path: ['client'],
      message: `expected a PartnerClient, or a seller client from client.forUser(token) (got ${shownValue(client)})`,
      code: 'invalid_type',
    },
  ]);
}

/** `options` with the job recording where its client's calls do, unless it says otherwise. */
export function onClientTelemetry<O extends BulkOptions>(client: BulkClient, options: O): O {
  // A partner's stand-in for a client has no recording of its own to share.
  if (options.telemetry !== undefined || !('_transport' in client)) return options;
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
