/**
 * Bank accounts: spec §2.4 (the account; also the payload of the bank-account events, §6.2) and
 * §4.5 (`POST /users/bank-accounts/{account_hash}`).
 *
 * @module
 */

import * as z from 'zod/mini';
import { described, maybe, OBJECT, oneOf, openEnum, text } from './common';

/** A bank account (spec §2.4, §6.2). Only `code` is required. */
export const BankAccountSchema = z.looseObject({
  /** Unique account code, max 191. */
  code: described(z.string(), 'Unique account code, max 191.'),
  /** Account holder name, max 191. */
  holder_name: maybe(z.string(), 'Account holder name, max 191.'),
  /** `pix` or `bank` in the update response; events may carry other values (an account type). */
  receiver_type: maybe(
    openEnum(['pix', 'bank']),
    'pix or bank in the update response; events may carry other values.',
  ),
  /** PIX key, max 191. */
  pix_key: maybe(z.string(), 'PIX key, max 191.'),
  /** Bank code. */
  bank_code: maybe(z.string(), 'Bank code.'),
  /** Branch number, max 20. */
  branch_number: maybe(z.string(), 'Branch number, max 20.'),
  /** Branch check digit, max 3. */
  branch_check_digit: maybe(z.string(), 'Branch check digit, max 3.'),
  /** Account number, max 20. */
  account_number: maybe(z.string(), 'Account number, max 20.'),
  /** Account check digit, max 3. */
  account_check_digit: maybe(z.string(), 'Account check digit, max 3.'),
  /** `approved`, `pending` or `reproved`. */
  status: maybe(openEnum(['approved', 'pending', 'reproved']), 'approved, pending or reproved.'),
  /** Reason of the status (bank-account events). */
  reason: maybe(z.string(), 'Reason of the status (bank-account events).'),
  /** Document reference (bank-account events); its shape: not shown. */
  bank_document: maybe(z.unknown(), 'Document reference (bank-account events); shape not shown.'),
});
/** A bank account (spec §2.4, §6.2). */
export type BankAccount = z.infer<typeof BankAccountSchema>;

/**
 * The body of `bankAccounts.update` (spec §4.5). The spec shows two variants without saying which
 * fields belong to each, so every named field is optional and only the documented limits of
 * spec §2.4 are checked.
 */
export const UpdateBankAccountParamsSchema = z.looseObject(
  {
    /** Account holder name, max 191 characters. */
    holder_name: z.optional(text('Account holder name, max 191.', { max: 191 })),
    /** `pix` or `bank`. */
    receiver_type: z.optional(oneOf('pix or bank.', ['pix', 'bank'])),
    /** PIX key, max 191 characters; `null` allowed. */
    pix_key: z.optional(z.nullable(text('PIX key, max 191; null allowed.', { max: 191 }))),
    /** Bank code. */
    bank_code: z.optional(text('Bank code.')),
    /** Branch (agency). */
    agency: z.optional(text('Branch (agency).')),
    /** Account. */
    account: z.optional(text('Account.')),
    /** Account type. */
    account_type: z.optional(text('Account type.')),
    /** Holder's tax id. */
    holder_document: z.optional(text("Holder's tax id.")),
    /** Branch number, max 20 characters. */
    branch_number: z.optional(text('Branch number, max 20.', { max: 20 })),
    /** Branch check digit, max 3 characters. */
    branch_check_digit: z.optional(text('Branch check digit, max 3.', { max: 3 })),
    /** Account number, max 20 characters. */
    account_number: z.optional(text('Account number, max 20.', { max: 20 })),
    /** Account check digit, max 3 characters. */
    account_check_digit: z.optional(text('Account check digit, max 3.', { max: 3 })),
  },
  OBJECT,
);
/** The body of `bankAccounts.update` (spec §4.5). */
export type UpdateBankAccountParams = z.input<typeof UpdateBankAccountParamsSchema>;
