/**
 * A refund job run again without its journal (a command from a shell's history, a script started
 * twice): the service refuses a second refund only while the first is active, and makes a new one
 * once it is `completed` (spec §3). `requestRefunds`' `unlessRefunded` reads each transaction's
 * refunds first and refuses one already refunded.
 *
 * @module
 */

import { optionsOf, type PartnerClient, type SellerClient } from '../client';
import { NotFoundError, PartnerError } from '../core/errors';
import type { RequestOptions } from '../core/options';
import { sentNothing } from '../core/retry/classify';
import type { Refund } from '../schemas/refund';

const BRAND = Symbol.for('partner-sdk.error.brand');

/**
 * A transaction already has a `completed` refund and none active: the job refused to request
 * another (`unlessRefunded`), and nothing was sent for it. `refund` is that completed refund. To
 * refund it again all the same, run the item without `unlessRefunded`.
 *
 * @example
 * ```ts
 * for await (const outcome of requestRefunds(seller, hashes, { unlessRefunded: true })) {
 *   if (outcome.status === 'failed' && outcome.error instanceof AlreadyRefundedError) {
 *     console.log(`${outcome.key} was refunded on ${outcome.error.refund.created_at}`);
 *   }
 * }
 * ```
 */
export class AlreadyRefundedError extends PartnerError {
  /** The transaction refused. */
  readonly transactionHash: string;
  /** Its completed refund (the newest, when there are several). */
  readonly refund: Refund;
  constructor(transactionHash: string, refund: Refund) {
    const created = refund.created_at ? `, created ${refund.created_at}` : '';
    super(
      `transaction ${transactionHash} already has a completed refund (${refund.hash}${created}): no refund requested`,
    );
    this.transactionHash = transactionHash;
    this.refund = refund;
  }
}
Object.defineProperty(AlreadyRefundedError, BRAND, { value: 'partner-sdk.AlreadyRefundedError' });

/**
 * Reads the transaction's refunds (`GET /financial/refund/{hash}`) and returns the
 * {@link AlreadyRefundedError} to refuse it with when one is completed (the first of the
 * `refundStatus.terminal` assumption's statuses) and none is active. An active refund lets the
 * request go: the service answers it with that refund, creating none. A failed one refunded
 * nothing, so it lets it go too.
 */
export async function alreadyRefunded(
  client: PartnerClient | SellerClient,
  transactionHash: string,
  options: RequestOptions,
): Promise<AlreadyRefundedError | undefined> {
  const refunds = await client.refunds.list(transactionHash, options).catch(noRefundsIfNotFound);
  const { active, terminal } = optionsOf(client).assumptions.refundStatus;
  const statusOf = (refund: Refund) => refund.status ?? '';
  if (refunds.some((refund) => active.includes(statusOf(refund)))) return undefined;
  const completed = refunds.findLast((refund) => statusOf(refund) === terminal[0]);
  return completed && new AlreadyRefundedError(transactionHash, completed);
}

/** Throws what {@link alreadyRefunded} returns: a refusal decided on a read, nothing sent. */
export async function refuseIfRefunded(
  client: PartnerClient | SellerClient,
  transactionHash: string,
  options: RequestOptions,
): Promise<void> {
  const refusal = await alreadyRefunded(client, transactionHash, options);
  // Decided on a read: the caller must not take the item for one whose request may have acted.
  if (refusal) throw sentNothing(refusal);
}

/**
 * A 404 on the read refunds nothing: the spec does not say how a transaction with no refunds is
 * read (an empty list, or "not found"), so the request goes, and a transaction that does not exist
 * gets the request's own 404.
 */
function noRefundsIfNotFound(error: unknown): Refund[] {
  if (error instanceof NotFoundError) return [];
  throw error;
}
