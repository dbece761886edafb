/**
 * What the processors tell BullMQ, through the public API, against the kit in-process: a 429
 * holds the whole queue for Retry-After and puts the job back; a typed 4xx fails it for good; a
 * 5xx is thrown for BullMQ to retry; a job run again reconciles before sending.
 */

import { RateLimitError, UnrecoverableError } from 'bullmq';
import { InternalServerError, RequestValidationError } from 'partner-sdk';
import {
  enqueueOfferUpdates,
  enqueueRefunds,
  enqueueRefundWaits,
  offerUpdateProcessor,
  type ProcessorJob,
  type RefundJobData,
  refundProcessor,
} from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';

function setup() {
  const { mock, seller } = kitClients(createMockPartnerApi({ refundPolls: 0 }));
  const pauses: number[] = [];
  const queue = { rateLimit: async (ms: number) => void pauses.push(ms) };
  const posts = (hash: string) => refundPostsTo(mock, hash);
  return { mock, seller, queue, pauses, posts };
}

const job = (transactionHash: string, runs = 1): ProcessorJob<RefundJobData> => ({
  id: `refund-request/${transactionHash}`,
  data: { transactionHash },
  timestamp: Date.now() - 1_000,
  attemptsMade: 0,
  attemptsStarted: runs,
});

describe('partner-sdk/bullmq processors', () => {
  it('a 429 holds the whole queue for Retry-After and puts the job back (RateLimitError)', async () => {
    const { mock, seller, queue, pauses, posts } = setup();
    const hash = mock.addTransaction();
    mock.failNext({ status: 429, retryAfter: 3, path: `/financial/refund/${hash}` });
    const refused = await refundProcessor(seller, { queue })(job(hash)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect(pauses).toEqual([3_000]);
    expect(posts(hash)).toBe(1);
  });

  it('a 429 asking for more than the 60 s the SDK waits fails the job for good, the queue not held', async () => {
    const { mock, seller, queue, pauses, posts } = setup();
    const hash = mock.addTransaction();
    const year = 365 * 24 * 3_600;
    mock.failNext({ status: 429, retryAfter: year, path: `/financial/refund/${hash}` });
    const refused = await refundProcessor(seller, { queue })(job(hash)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnrecoverableError);
    expect((refused as Error).message).toMatch(/^RateLimitError 429: .*Retry-After 31536000 s/);
    expect(pauses).toEqual([]);
    expect(posts(hash)).toBe(1);
  });

  it('a typed 4xx fails the job without retry (UnrecoverableError), a 5xx is left to BullMQ to retry', async () => {
    const { mock, seller, queue } = setup();
    const notFound = await refundProcessor(seller, { queue })(job('trx_missing')).catch(
      (e: unknown) => e,
    );
    expect(notFound).toBeInstanceOf(UnrecoverableError);
    expect((notFound as Error).message).toMatch(/^NotFoundError 404: /);
    const hash = mock.addTransaction();
    mock.failNext({ status: 502, path: `/financial/refund/${hash}` });
    const failed = await refundProcessor(seller, { queue })(job(hash)).catch((e: unknown) => e);
    expect(failed).not.toBeInstanceOf(UnrecoverableError);
    expect((failed as { status?: number }).status).toBe(502);
    const { productHash, offerCode } = { productHash: 'prd_none', offerCode: 'off_none' };
    const offer = offerUpdateProcessor(seller, { queue });
    const data = { productHash, offerCode, params: { price: 1_990 } };
    await expect(offer({ data, timestamp: Date.now(), attemptsMade: 0 })).rejects.toBeInstanceOf(
      UnrecoverableError,
    );
  });

  it('a refund job run again finds the refund its first run made instead of sending again', async () => {
    const { mock, seller, queue, posts } = setup();
    const hash = mock.addTransaction();
    const first = await refundProcessor(seller, { queue })(job(hash));
    expect(first).toEqual({
      status: 'succeeded',
      key: hash,
      reconciled: false,
      result: { kind: 'accepted' },
    });
    const again = await refundProcessor(seller, { queue })({ ...job(hash, 2), attemptsMade: 1 });
    expect(again).toMatchObject({ status: 'succeeded', key: hash, reconciled: true });
    expect(posts(hash)).toBe(1);
  });

  it('a 408 and a dropped connection are thrown for BullMQ to retry, each after one request (maxRetries: 0)', async () => {
    const { mock, seller, queue, posts } = setup();
    const [timedOut, dropped] = [mock.addTransaction(), mock.addTransaction()];
    mock.failNext({ status: 408, path: `/financial/refund/${timedOut}` });
    mock.dropNext({ path: `/financial/refund/${dropped}` });
    for (const hash of [timedOut, dropped]) {
      const failed = await refundProcessor(seller, { queue })(job(hash)).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(Error);
      expect(failed).not.toBeInstanceOf(UnrecoverableError);
      expect(failed).not.toBeInstanceOf(RateLimitError);
      expect(posts(hash)).toBe(1);
    }
  });

  it('names the error of a failure left to BullMQ, and one job says nothing another learned, when both end on one failed login', async () => {
    const { mock, seller, queue } = setup();
    const [earlier, fresh] = [mock.addTransaction(), mock.addTransaction()];
    const sentence =
      "A refund request of this job may have taken effect (its answer was lost): read the transaction's refunds (refunds.findCreatedSince) before enqueueing it again.";
    // The job of `earlier` lost its first answer; both runs wait on the one login the client makes.
    const runAgain = {
      ...job(earlier, 2),
      attemptsMade: 1,
      failedReason: `${sentence} Last failure: InternalServerError 503: x`,
    };
    mock.failNext({ status: 503, times: 10, path: '/auth' });
    const process = refundProcessor(seller, { queue });
    const failure = (run: ProcessorJob<RefundJobData>) =>
      process(run).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    const [again, first] = await Promise.all([failure(runAgain), failure(job(fresh))]);
    for (const failed of [again, first]) {
      expect(failed).toBeInstanceOf(InternalServerError);
      expect(failed).toMatchObject({ status: 503 });
    }
    expect(first?.message).not.toContain('may have taken effect');
    expect(again?.message.startsWith(`${sentence} Last failure: InternalServerError 503: `)).toBe(
      true,
    );
    expect(first?.message).toMatch(/^InternalServerError 503: /);
  });

  it('the producer names a bad item and its problem once', async () => {
    const queue = { name: 'refunds', addBulk: async (jobs: unknown[]) => jobs };
    const items = [{ transactionHash: 'trx_1', sellerToken: 'tok' } as never];
    const refused = await enqueueRefunds(queue, items).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RequestValidationError);
    const { message } = refused as RequestValidationError;
    expect(message).toMatch(/^Invalid item 0: Invalid job data: sellerToken: a job never carries/);
    expect(message.match(/a job never carries/g)).toHaveLength(1);
    const badParams = [{ transactionHash: 'trx_1', params: { reason: 'x'.repeat(1001) } }];
    const tooLong = await enqueueRefunds(queue, badParams).catch((error: Error) => error);
    expect(tooLong).toBeInstanceOf(RequestValidationError);
    const { message: tooLongMessage } = tooLong as RequestValidationError;
    expect(tooLongMessage).toMatch(/^Invalid item 0: /);
    expect(tooLongMessage.match(/reason/g)).toHaveLength(1);
  });

  it('the producer refuses a bad item before enqueuing anything, naming it', async () => {
    const added: unknown[] = [];
    const queue = {
      name: 'refunds',
      addBulk: async (jobs: unknown[]) => {
        added.push(...jobs);
        return jobs;
      },
    };
    await expect(
      enqueueRefunds(queue, [{ transactionHash: 'trx_1' }, { transactionHash: '' }]),
    ).rejects.toThrow(RequestValidationError);
    await expect(
      enqueueRefunds(queue, [{ transactionHash: 'trx_1' }, { transactionHash: '' }]),
    ).rejects.toThrow(/Invalid item 1/);
    expect(added).toEqual([]);
    await enqueueRefunds(queue, [{ transactionHash: 'trx_1' }, { transactionHash: 'a:b' }]);
    expect(added).toMatchObject([
      {
        name: 'refund-request',
        opts: {
          jobId: 'refund-request/trx_1',
          attempts: 5,
          backoff: { type: 'exponential', delay: 1_000 },
        },
      },
      { name: 'refund-request', opts: { jobId: 'refund-request/a%3Ab' } },
    ]);
  });

  it("the producer refuses an item carrying a seller's token (the bulk items' shape): no token reaches Redis", async () => {
    const added: unknown[] = [];
    const queue = {
      name: 'refunds',
      addBulk: async (jobs: unknown[]) => {
        added.push(...jobs);
        return jobs;
      },
    };
    const sellerToken = 'seller-token-in-a-job-0001';
    // The items `requestRefunds` and `updateOffers` take: a worker acts for its own seller only.
    const refunds = [{ transactionHash: 'trx_1' }, { transactionHash: 'trx_2', sellerToken }];
    const offers = [
      { productHash: 'prd_1', offerCode: 'off_1', params: { price: 990 }, sellerToken },
    ];
    const attempts = [
      enqueueRefunds(queue, refunds),
      enqueueRefundWaits(queue, refunds),
      enqueueOfferUpdates(queue, offers),
    ];
    for (const attempt of attempts) {
      const refused = await attempt.catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RequestValidationError);
      expect((refused as RequestValidationError).issues[0]?.path).toEqual(['sellerToken']);
      expect(
        JSON.stringify({ ...(refused as Error), message: (refused as Error).message }),
      ).not.toContain(sellerToken);
    }
    expect(added).toEqual([]);
  });

  it('a job whose data was edited by hand into a bad shape fails for good, nothing sent', async () => {
    const { mock, seller, queue, pauses } = setup();
    // What a hand edit of the job's data in Redis can leave: BullMQ hands it over as parsed JSON.
    const edited: unknown[] = [
      null,
      {},
      { transactionHash: 42 },
      { transactionHash: 'trx_1', unlessRefunded: 'false' },
    ];
    for (const data of edited) {
      const bad = { ...job('trx_1'), data } as unknown as ProcessorJob<RefundJobData>;
      const refused = await refundProcessor(seller, { queue })(bad).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(UnrecoverableError);
      expect((refused as Error).message).toMatch(/^RequestValidationError/);
    }
    expect(mock.requests.filter((r) => r.method === 'POST')).toEqual([]);
    expect(pauses).toEqual([]);
  });
});
