import type { RequestOptions } from '../core/options';
import type { APIPromise } from '../core/transport/api-promise';
import { route } from '../core/transport/path';
import {
  type BankAccount,
  BankAccountSchema,
  type BankAccountUpdateParams,
  BankAccountUpdateParamsSchema,
} from '../schemas/bank-account';
import { envelopedOrBare } from '../schemas/response-fields';
import { APIResource } from './resource';

// Read bare, as spec §4 shows, or under `data` (`envelopedOrBare` says why).
const accountAnswerSchema = envelopedOrBare(BankAccountSchema);

/** Bank accounts of the seller (spec §4.5). */
export class BankAccounts extends APIResource {
  /**
   * Updates a bank account: `POST /users/bank-accounts/{accountHash}`. Safe to retry: sending the
   * same data twice leaves the same account.
   *
   * @param accountHash The bank account's hash.
   * @throws {RequestValidationError} a documented rule is broken (nothing is sent).
   * @throws {NotFoundError} the seller has no bank account with that hash.
   * @throws {UnprocessableEntityError} the service refused fields (see `fieldErrors`).
   * @example
   * ```ts
   * const seller = client.forUser(publicToken);
   * const account = await seller.bankAccounts.update('acc_123', {
   *   holder_name: 'Ana Souza',
   *   receiver_type: 'pix',
   *   pix_key: 'ana@example.com',
   *   bank_code: '341',
   * });
   * console.log(account.status); // 'approved', 'pending' or 'reproved' (the spec shows no transitions)
   * ```
   */
  update(
    accountHash: string,
    params: BankAccountUpdateParams,
    options?: RequestOptions,
  ): APIPromise<BankAccount> {
    return this._client.post(
      route`/users/bank-accounts/${{ accountHash }}`,
      {
        operation: 'bankAccounts.update',
        params: { value: params, schema: BankAccountUpdateParamsSchema, sendAs: 'json' },
        schema: accountAnswerSchema,
        // An update states the whole account: sent twice, it leaves the same account.
        replay: 'always',
      },
      options,
    );
  }
}
