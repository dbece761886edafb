/**
 * Which seller a job runs for. A worker is given either one client (every job runs as it) or a
 * resolver that picks a seller's client from the job's `seller`, a reference of the partner's own
 * (an account id), so that one queue and one pool of workers serve a marketplace's thousands of
 * sellers while no seller's token is ever written to Redis.
 *
 * @module
 */

import type { PartnerClient, SellerClient } from '../client';
import { APIUserAbortError, RequestValidationError } from '../core/errors';
import type { ProcessorJob } from './processors';

/** A client a processor calls with: the partner's, or one seller's (`client.forUser(token)`). */
export type JobClient = PartnerClient | SellerClient;

/**
 * Picks the client of a job's seller, from the `seller` reference the producer put in the job's
 * data: typically `client.forUser(await tokens.get(seller))`, reading the seller's token from the
 * partner's own store. Called once per job run, with the signal BullMQ aborts when it cancels the
 * job (the run ends at once then, whether or not the function heeds it); a rejection fails the run as the call's failure
 * would (a `RequestValidationError` for good, anything else retried by BullMQ). A client acts for
 * one seller: one already given for another seller fails the job for good, nothing sent.
 *
 * @example
 * ```ts
 * const forSeller: SellerResolver = async (account) => client.forUser(await sellerTokens.get(account));
 * ```
 */
export type SellerResolver = (
  seller: string,
  job: ProcessorJob<unknown>,
  signal?: AbortSignal,
) => JobClient | Promise<JobClient>;

/** A processor's first argument: one client for every job, or a resolver per job's seller. */
export type JobClients = JobClient | SellerResolver;

/** The longest `seller` reference a job carries (it is written to Redis with every job). */
export const MAX_SELLER_LENGTH = 256;

const refusal = (message: string, what = 'Invalid job data') =>
  new RequestValidationError(what, [{ path: ['seller'], message, code: 'invalid_value' }]);

/**
 * A job's `seller` when it has one, checked: a non-empty string of at most
 * {@link MAX_SELLER_LENGTH} characters. Its value is never quoted (a partner who put a token there
 * by mistake must not see it in a failed job's reason).
 */
export function sellerOf(data: unknown): string | undefined {
  const seller = (data as { seller?: unknown } | null | undefined)?.seller;
  if (seller === undefined) return undefined;
  if (typeof seller !== 'string' || seller === '' || seller.length > MAX_SELLER_LENGTH) {
    throw refusal(`expected a seller reference: a string of 1 to ${MAX_SELLER_LENGTH} characters`);
  }
  return seller;
}

const isClient = (value: unknown): value is JobClient =>
  typeof (value as { refunds?: { request?: unknown } } | null | undefined)?.refunds?.request ===
  'function';

/**
 * Refuses a processor's first argument that is neither a client nor a resolver, when the
 * processor is made.
 */
export function checkJobClients(where: string, clients: unknown): void {
  if (typeof clients === 'function' || isClient(clients)) return;
  throw new RequestValidationError(`Invalid ${where} arguments`, [
    {
      path: ['client'],
      message: 'expected a client (client.forUser(token)) or a function of the job’s seller',
      code: 'invalid_type',
    },
  ]);
}

/**
 * The client `job` runs as. A worker of one client refuses a job marked for a seller (it would
 * run as the worker's seller instead); a worker of a resolver refuses a job with no seller, and a
 * resolver's answer that is not a client.
 */
export async function clientOfJob(
  clients: JobClients,
  job: ProcessorJob<unknown>,
  signal?: AbortSignal,
): Promise<JobClient> {
  const seller = sellerOf(job.data);
  if (typeof clients !== 'function') {
    if (seller === undefined) return clients;
    throw refusal(
      "the job is for a seller, and this worker's client is fixed: give the processor a function of the seller",
    );
  }
  if (seller === undefined) {
    throw refusal("expected the job's seller: this worker picks its client from it");
  }
  const client = await untilAborted(clients(seller, job, signal), signal);
  if (!isClient(client)) {
    throw refusal('expected a client from the seller function', 'Invalid seller function result');
  }
  return ownClient(clients, seller, client);
}

/**
 * `answer`, or `APIUserAbortError` as soon as BullMQ cancels the job: a seller function waiting on
 * a token store that hangs must not hold a cancelled job (nothing has been sent yet).
 */
function untilAborted<T>(answer: T | Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return Promise.resolve(answer);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(new APIUserAbortError('The job was cancelled.', { cause: signal.reason }));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(answer)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// The seller each resolver's clients were first given for. A client acts for one seller only, so
// one handed out for two (a cache without a key, the partner's own client returned for all) would
// run a job as another seller: the second is refused instead, nothing sent. Weak on both sides: a
// resolver or client dropped by the partner is not kept.
const sellersOfClients = new WeakMap<SellerResolver, WeakMap<JobClient, string>>();

function ownClient(resolver: SellerResolver, seller: string, client: JobClient): JobClient {
  const given = sellersOfClients.get(resolver) ?? new WeakMap<JobClient, string>();
  sellersOfClients.set(resolver, given);
  const first = given.get(client);
  if (first === undefined) given.set(client, seller);
  else if (first !== seller) {
    throw refusal(
      'the seller function gave a client it already gave for another seller: give each seller its own (client.forUser(token))',
      'Invalid seller function result',
    );
  }
  return client;
}
