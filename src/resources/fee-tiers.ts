import type { RequestOptions } from '../core/options';
import type { APIPromise } from '../core/transport/api-promise';
import { route } from '../core/transport/path';
import { type FeeTierChange, FeeTierHistoryResponseSchema } from '../schemas/fee-tier';
import { APIResource } from './resource';

/** History of changes to fee tiers (spec §4.11). */
export class FeeTiers extends APIResource {
  /**
   * Reads the history of changes to the fee tiers of the authenticated user, newest first:
   * `GET /users/fee-tiers/history`.
   *
   * @example
   * ```ts
   * const seller = client.forUser(publicToken);
   * const changes = await seller.feeTiers.history();
   * for (const change of changes) console.log(change.action, change.changed_by?.name, change.created_at);
   * ```
   */
  history(options?: RequestOptions): APIPromise<FeeTierChange[]> {
    return this._client.get(
      route`/users/fee-tiers/history`,
      { operation: 'feeTiers.history', schema: FeeTierHistoryResponseSchema },
      options,
    );
  }
}
