/**
 * Bank accounts: spec §2.4 (the account; also the payload of the bank-account events, §6.2) and
 * §4.5 (`POST /users/bank-accounts/{account_hash}`).
 *
 * @module
 */

import * as z from 'zod/mini';
import { oneOf, optional, paramsObject, text } from './request-rules';
import { maybe, openEnum, STRING } from './response-fields';

/** A bank account (spec §2.4, §6.2). Only `code` is required. */
export const BankAccountSchema = z.looseObject({
  /** Unique account code, max 191. */
  code: STRING,
  /** Account holder name, max 191. */
  holder_name: maybe(STRING),
  /** `pix` or `bank` in the update response; events may carry other values (an account type). */
  receiver_type: maybe(openEnum(['pix', 'bank'])),
  /** PIX key, max 191. */
  pix_key: maybe(STRING),
  /** Bank code. */
  bank_code: maybe(STRING),
  /** Branch number, max 20. */
  branch_number: maybe(STRING),
  /** Branch check digit, max 3. */
  branch_check_digit: maybe(STRING),
  /** Account number, max 20. */
  account_number: maybe(STRING),
  /** Account check digit, max 3. */
  account_check_digit: maybe(STRING),
  /** `approved`, `pending` or `reproved`. */
  status: maybe(openEnum(['approved', 'pending', 'reproved'])),
  /** Reason of the status (bank-account events). */
  reason: maybe(STRING),
  /** Document reference (bank-account events); its shape: not shown. */
  bank_document: maybe(z.unknown()),
});
/** A bank account (spec §2.4, §6.2). */
export type BankAccount = z.infer<typeof BankAccountSchema>;

/**
 * The body of `bankAccounts.update` (spec §4.5). The spec shows two variants without saying which
 * fields belong to each, so every named field is optional and only the documented limits of
 * spec §2.4 are checked.
 */
export const UpdateBankAccountParamsSchema = paramsObject({
  /** Account holder name, max 191 characters. */
  holder_name: optional(text({ max: 191 })),
  /** `pix` or `bank`. */
  receiver_type: optional(oneOf(['pix', 'bank'])),
  /** PIX key, max 191 characters; `null` allowed. */
  pix_key: optional(z.nullable(text({ max: 191 }))),
  /** Bank code. */
  bank_code: optional(text()),
  /** Branch (agency). */
  agency: optional(text()),
  /** Account. */
  account: optional(text()),
  /** Account type. */
  account_type: optional(text()),
  /** Holder's tax id. */
  holder_document: optional(text()),
  /** Branch number, max 20 characters. */
  branch_number: optional(text({ max: 20 })),
  /** Branch check digit, max 3 characters. */
  branch_check_digit: optional(text({ max: 3 })),
  /** Account number, max 20 characters. */
  account_number: optional(text({ max: 20 })),
  /** Account check digit, max 3 characters. */
  account_check_digit: optional(text({ max: 3 })),
});
/** The body of `bankAccounts.update` (spec §4.5). */
export type UpdateBankAccountParams = z.input<typeof UpdateBankAccountParamsSchema>;
