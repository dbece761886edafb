/**
 * `refundProcessor` on a real redis-server, against a service whose answer to a job's refund
 * request says the refund was made (a 2xx the SDK cannot read) or was lost on its way, and whose
 * reads of the transaction's refunds then fail on every later attempt. The job's final
 * `failedReason` says first what matters to the operator (the refund took effect, or may have),
 * then the last attempt's own failure; a later check that found no refund drops what an earlier
 * attempt said.
 */

import type { Job } from 'bullmq';
import { enqueueRefunds, refundProcessor } from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { errorNameOfReason } from '../../src/bullmq/failures';
import { useBullmq } from '../helpers/bullmq-queues';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';
import { withTimeout } from '../helpers/waits';

const bullmq = useBullmq();

type Answer = (request: Request) => Promise<Response>;
type Scripted = (kit: Answer, request: Request) => Promise<Response>;

/**
 * A seller client whose fetch answers each refund request (POST) with the next of `posts` and
 * each read of the transaction's refunds (GET) with the next of `reads`, the kit's own answer once
 * they run out. Each is handed the kit's own answer function.
 */
function scripted(posts: Scripted[], reads: Scripted[]) {
  const mock = createMockPartnerApi();
  const hash = mock.addTransaction(5000);
  const kit: Answer = (request) => mock.fetch(request);
  const queues = { POST: [...posts], GET: [...reads] };
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const onRefunds = new URL(request.url).pathname.endsWith(`/financial/refund/${hash}`);
    const next = onRefunds ? queues[request.method as 'POST' | 'GET']?.shift() : undefined;
    return next ? next(kit, request) : kit(request);
  };
  const { seller } = kitClients(mock, { clientToken: mock.credentials.clientToken, fetch });
  const honest = kitClients(mock, { clientToken: mock.credentials.clientToken }).seller;
  const refunds = async () => (await honest.refunds.list(hash)).length;
  return { mock, hash, seller, refunds };
}

const unavailable = async () => new Response('Service Unavailable', { status: 503 });

/** Acts at the kit, then answers 200 in a shape no refund has. */
const actedUnreadable = async (kit: Answer, request: Request) => {
  await kit(request);
  return Response.json({ status: 'success', data: { refunded: 'yes' } }, { status: 200 });
};

/** Acts at the kit, then loses the answer as a reset connection does. */
const actedLost = async (kit: Answer, request: Request) => {
  await kit(request);
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
  });
};

/** Runs one job of `hash` through `refundProcessor(seller)` and resolves with it once it failed for good. */
async function failedJob(
  seller: ReturnType<typeof scripted>['seller'],
  hash: string,
  attempts = 3,
) {
  const queue = bullmq.queue();
  const worker = bullmq.worker(queue.name, refundProcessor(seller, { queue }));
  const failed = new Promise<Job>((resolve, reject) => {
    worker.on('completed', () => reject(new Error('the job completed')));
    worker.on('failed', (job) => {
      if (job?.finishedOn) resolve(job);
    });
  });
  await enqueueRefunds(queue, [{ transactionHash: hash }], { attempts, backoffMs: 20 });
  return withTimeout(failed, 20_000, 'the job to fail for good');
}

describe('refundProcessor: a job whose refund took effect and whose later checks failed', () => {
  it('ends with a failedReason saying first that the refund took effect, then the last check failure', async () => {
    const { mock, hash, seller, refunds } = scripted([actedUnreadable], [unavailable, unavailable]);
    const job = await failedJob(seller, hash);
    expect(job.attemptsMade).toBe(3);
    expect(job.failedReason).toMatch(
      /^A refund request of this job took effect \(answered 200, in a shape the SDK could not read\): its refund is made or under way, do not enqueue it again\. Last failure: /,
    );
    expect(job.failedReason).toContain('503');
    expect(refundPostsTo(mock, hash)).toBe(1);
    expect(await refunds()).toBe(1);
  }, 60_000);

  it('a check refused for good (404) still ends saying the refund took effect, counted by its own error', async () => {
    const notFound = async () => Response.json({ message: 'Not found.' }, { status: 404 });
    const { hash, seller, refunds } = scripted([actedUnreadable], [notFound]);
    const job = await failedJob(seller, hash);
    expect(job.attemptsMade).toBe(2);
    expect(job.failedReason).toMatch(
      /^A refund request of this job took effect \(answered 200, .*\. Last failure: NotFoundError 404: /,
    );
    // A batch's failedBy names the last attempt's own error.
    expect(errorNameOfReason(job.failedReason)).toBe('NotFoundError');
    expect(await refunds()).toBe(1);
  }, 60_000);

  it('ends with a failedReason saying the refund may have taken effect when its answer was lost', async () => {
    const { hash, seller, refunds } = scripted(
      [actedLost],
      [unavailable, unavailable, unavailable],
    );
    const job = await failedJob(seller, hash);
    expect(job.failedReason).toMatch(
      /^A refund request of this job may have taken effect \(its answer was lost\): read the transaction's refunds \(refunds\.findCreatedSince\) before enqueueing it again\. Last failure: /,
    );
    expect(job.failedReason).toContain('503');
    expect(await refunds()).toBe(1);
  }, 60_000);

  it('a later check that found no refund drops what an earlier lost answer said', async () => {
    // The first request is lost before it reaches the service; the second is refused (400).
    const lostUnsent = async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
      });
    };
    const refused = async () =>
      Response.json({ message: 'The reason is invalid.' }, { status: 400 });
    const { hash, seller, refunds } = scripted([lostUnsent, refused], [unavailable]);
    const job = await failedJob(seller, hash);
    expect(job.failedReason).toMatch(/^BadRequestError 400: /);
    expect(await refunds()).toBe(0);
  }, 60_000);
});
