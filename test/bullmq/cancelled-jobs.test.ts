/**
 * A job BullMQ cancels (`worker.cancelJob`, `worker.cancelAllJobs`, as a worker shutting down
 * does) ends at once: BullMQ hands a processor that declares its third parameter an `AbortSignal`,
 * and each processor passes it to its calls and waits, so an aborted job rejects with
 * `APIUserAbortError` (the cause BullMQ's reason) instead of polling on for minutes. A refund job
 * cancelled while its request was out is reconciled by its next run like any lost answer.
 */

import type { Job } from 'bullmq';
import { APIUserAbortError, OutcomeUnknownError } from 'partner-sdk';
import {
  offerUpdateProcessor,
  type ProcessorJob,
  refundProcessor,
  refundWaitProcessor,
} from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { useBullmq } from '../helpers/bullmq-queues';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';
import { waitFor, withTimeout } from '../helpers/waits';

const bullmq = useBullmq();

function setup() {
  const { mock, seller } = kitClients(createMockPartnerApi({ refundPolls: 0 }));
  const queue = { rateLimit: async () => {} };
  return { mock, seller, queue };
}

const job = <D>(data: D, attemptsMade = 0): ProcessorJob<D> => ({
  id: 'job-1',
  data,
  timestamp: Date.now() - 1_000,
  attemptsMade,
  attemptsStarted: attemptsMade + 1,
});

describe("a processor given BullMQ's signal", () => {
  it('declares the signal parameter, so BullMQ hands it one', () => {
    const { seller, queue } = setup();
    for (const processor of [
      refundProcessor(seller, { queue }),
      refundWaitProcessor(seller, { queue }),
      offerUpdateProcessor(seller, { queue }),
    ]) {
      // BullMQ passes a signal only to a processor whose `length` is 3 (job, token, signal).
      expect(processor.length).toBe(3);
    }
  });

  it('ends a refund wait at once when the signal aborts, with APIUserAbortError', async () => {
    const { mock, seller, queue } = setup();
    const hash = mock.addTransaction();
    await seller.refunds.request(hash);
    mock.refundOutcome(hash, 'completed', { polls: 1_000 });
    const controller = new AbortController();
    const waiting = refundWaitProcessor(seller, { queue })(
      job({ transactionHash: hash }),
      'token',
      controller.signal,
    ).catch((e: unknown) => e);
    const polls = () => mock.stats.requests;
    const before = polls();
    await waitFor(() => polls() > before, 'the first poll');
    controller.abort('operator stop');
    const error = await withTimeout(waiting, 2_000, 'the cancelled wait');
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe('operator stop');
  });

  it('sends nothing for a refund job whose signal already aborted', async () => {
    const { mock, seller, queue } = setup();
    const hash = mock.addTransaction();
    const error = await refundProcessor(seller, { queue })(
      job({ transactionHash: hash }),
      'token',
      AbortSignal.abort('shutting down'),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(refundPostsTo(mock, hash)).toBe(0);
  });

  it('a refund job cancelled while its request was out is found by its next run, not sent again', async () => {
    const { mock, seller, queue } = setup();
    const hash = mock.addTransaction();
    mock.failNext({ delayMs: 60_000, path: `/financial/refund/${hash}`, method: 'POST' });
    const controller = new AbortController();
    const processor = refundProcessor(seller, { queue });
    const first = processor(job({ transactionHash: hash }), 'token', controller.signal).catch(
      (e: unknown) => e,
    );
    await waitFor(() => refundPostsTo(mock, hash) === 1, 'the refund request to arrive');
    controller.abort('operator stop');
    const error = await withTimeout(first, 2_000, 'the cancelled refund job');
    // The refund may exist: thrown as it is (not UnrecoverableError), for a next run to reconcile.
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(APIUserAbortError);
    const again = await processor(job({ transactionHash: hash }, 1), 'token');
    expect(again).toMatchObject({ key: hash, status: 'succeeded' });
    expect(await seller.refunds.list(hash)).toHaveLength(1);
  });
});

describe('worker.cancelJob, on a real redis-server', () => {
  it("stops a refund job waiting for another worker's lease, nothing sent", async () => {
    const { mock, seller, queue } = setup();
    const hash = mock.addTransaction();
    const redis = bullmq.redis();
    const lease = `partner-sdk:refund-lease:{${hash}}`;
    // Another worker holds the transaction's lease, sending its refund.
    await redis.set(lease, 'another-worker', 'PX', 60_000);
    /** Scripts Redis has run: the job's claim of the lease is one. */
    const scripts = async () => {
      const stats = await redis.info('commandstats');
      const calls = [...stats.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)];
      return calls.reduce((sum, [, count]) => sum + Number(count), 0);
    };
    const before = await scripts();
    const controller = new AbortController();
    const processor = refundProcessor(seller, { queue, redis, leaseMs: 60_000 });
    const waiting = processor(job({ transactionHash: hash }), 'token', controller.signal).catch(
      (e: unknown) => e,
    );
    await waitFor(async () => (await scripts()) > before, 'the job to find the lease held');
    controller.abort('operator stop');
    const error = await withTimeout(waiting, 2_000, 'the cancelled lease wait');
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe('operator stop');
    expect(refundPostsTo(mock, hash)).toBe(0);
    expect(await redis.get(lease)).toBe('another-worker');
  });

  it('fails a refund wait job at once, naming the abort, instead of polling on', async () => {
    const { mock, seller } = setup();
    const hash = mock.addTransaction();
    await seller.refunds.request(hash);
    mock.refundOutcome(hash, 'completed', { polls: 1_000 });
    const queue = bullmq.queue();
    const processor = refundWaitProcessor(seller, { queue });
    const worker = bullmq.worker(queue.name, processor);
    const failed = new Promise<Job>((resolve) => worker.on('failed', (j) => j && resolve(j)));
    const active = new Promise<Job>((resolve) => worker.on('active', resolve));
    await queue.add('refund-wait', { transactionHash: hash }, { attempts: 1 });
    const running = await withTimeout(active, 10_000, 'the job to start');
    await waitFor(() => mock.stats.requests > 1, 'a poll');
    expect(worker.cancelJob(running.id!, 'operator stop')).toBe(true);
    const ended = await withTimeout(failed, 3_000, 'the cancelled job to fail');
    expect(ended.failedReason).toMatch(
      /^APIUserAbortError: The wait for refund of transaction .* was aborted\.$/,
    );
  }, 30_000);
});
