/**
 * Bank accounts: spec §2.4 (the account; also the payload of the bank-account events, §6.2) and
 * §4.5 (`POST /users/bank-accounts/{account_hash}`).
 *
 * @module
 */

import * as z from 'zod/mini';
import { oneOf, optional, paramsObject, text } from './request-rules';
import { maybe, type OpenEnum, openEnum, responseObject, STRING } from './response-fields';

// ---------------------------------------------------------------------------------------------
// Types: the documentation a partner reads (hover, reference). The schemas below are proven to
// infer exactly these types (test/types/schemas-match.test-d.ts).
// ---------------------------------------------------------------------------------------------

/**
 * Approval state of a bank account (spec §2.4, §3): `approved`, `pending` (awaiting review) or
 * `reproved` (refused). Transitions: not shown. Open: a value the service adds later passes.
 */
export type BankAccountStatus = OpenEnum<'approved' | 'pending' | 'reproved'>;

/**
 * Where payouts go (spec §2.4, §4.5): `pix` (to a PIX key) or `bank` (to a branch and account).
 * Events may carry other values (an account type, spec §6.2), so responses take any string.
 */
export type ReceiverType = 'pix' | 'bank';

/**
 * A bank account (spec §2.4), as `bankAccounts.update` returns it and as the bank-account events
 * carry it (spec §6.2). `code` is always there; every other field may be absent or `null`.
 */
export interface BankAccount {
  /** Unique account code (at most 191 characters): its identity. Always present. Spec §2.4. */
  code: string;
  /** Account holder's name, at most 191 characters. Absent or `null` when not sent. Spec §2.4. */
  holder_name?: string | null;
  /** `pix` or `bank` in the update response; events may carry other values. Absent or `null` when not sent. Spec §2.4, §6.2. */
  receiver_type?: OpenEnum<ReceiverType> | null;
  /** PIX key, at most 191 characters. `null` when the account has none (e.g. `receiver_type` `bank`). Spec §2.4. */
  pix_key?: string | null;
  /** Bank code (e.g. `341`). Absent or `null` when not sent. Spec §2.4. */
  bank_code?: string | null;
  /** Branch (agency) number, at most 20 characters. Absent or `null` when not sent. Spec §2.4. */
  branch_number?: string | null;
  /** Branch check digit, at most 3 characters. Absent or `null` when there is none. Spec §2.4. */
  branch_check_digit?: string | null;
  /** Account number, at most 20 characters. Absent or `null` when not sent. Spec §2.4. */
  account_number?: string | null;
  /** Account check digit, at most 3 characters. Absent or `null` when there is none. Spec §2.4. */
  account_check_digit?: string | null;
  /** `approved`, `pending` (awaiting review) or `reproved` (refused). Absent or `null` when not sent. Spec §2.4, §3. */
  status?: BankAccountStatus | null;
  /** Why the account has its status (bank-account events only). Absent or `null` otherwise. Spec §2.4, §6.2. */
  reason?: string | null;
  /** Reference of the bank document (bank-account events only); its shape: not shown. Absent or `null` otherwise. Spec §6.2. */
  bank_document?: unknown;
}

/**
 * The body of `bankAccounts.update` (spec §4.5). The spec shows two variants (PIX and bank)
 * without saying which fields belong to each, so every named field is optional and only the
 * documented limits of spec §2.4 are checked.
 */
export interface BankAccountUpdateParams {
  /** Account holder's name, at most 191 characters. Spec §2.4, §4.5. */
  holder_name?: string;
  /** `pix` (payouts to `pix_key`) or `bank` (to branch and account). Spec §4.5. */
  receiver_type?: ReceiverType;
  /** PIX key, at most 191 characters; `null` clears it. Spec §2.4, §4.5. */
  pix_key?: string | null;
  /** Bank code (e.g. `341`). Spec §4.5. */
  bank_code?: string;
  /** Branch (agency), as the spec's list of updatable fields names it. Spec §4.5. */
  agency?: string;
  /** Account, as the spec's list of updatable fields names it. Spec §4.5. */
  account?: string;
  /** Account type (its values: not shown). Spec §4.5. */
  account_type?: string;
  /** The holder's tax id (CPF or CNPJ). Spec §4.5. */
  holder_document?: string;
  /** Branch number, at most 20 characters. Spec §2.4. */
  branch_number?: string;
  /** Branch check digit, at most 3 characters. Spec §2.4. */
  branch_check_digit?: string;
  /** Account number, at most 20 characters. Spec §2.4. */
  account_number?: string;
  /** Account check digit, at most 3 characters. Spec §2.4. */
  account_check_digit?: string;
}

/**
 * The body of `bankAccounts.update`.
 *
 * @deprecated Renamed {@link BankAccountUpdateParams}.
 */
export type UpdateBankAccountParams = BankAccountUpdateParams;

// ---------------------------------------------------------------------------------------------
// Schemas: the run-time truth (field notes: see the types above)
// ---------------------------------------------------------------------------------------------

/** Schema of {@link BankAccount}: only `code` is required. */
export const BankAccountSchema = responseObject({
  code: STRING,
  holder_name: maybe(STRING),
  receiver_type: maybe(openEnum(['pix', 'bank'])),
  pix_key: maybe(STRING),
  bank_code: maybe(STRING),
  branch_number: maybe(STRING),
  branch_check_digit: maybe(STRING),
  account_number: maybe(STRING),
  account_check_digit: maybe(STRING),
  status: maybe(openEnum(['approved', 'pending', 'reproved'])),
  reason: maybe(STRING),
  bank_document: maybe(z.unknown()),
});

/** Schema of {@link BankAccountUpdateParams}: the documented limits of spec §2.4. */
export const BankAccountUpdateParamsSchema = paramsObject({
  holder_name: optional(text({ max: 191 })),
  receiver_type: optional(oneOf(['pix', 'bank'])),
  pix_key: optional(z.nullable(text({ max: 191 }))),
  bank_code: optional(text()),
  agency: optional(text()),
  account: optional(text()),
  account_type: optional(text()),
  holder_document: optional(text()),
  branch_number: optional(text({ max: 20 })),
  branch_check_digit: optional(text({ max: 3 })),
  account_number: optional(text({ max: 20 })),
  account_check_digit: optional(text({ max: 3 })),
});
