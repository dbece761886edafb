/**
 * `refundProcessor` with `unlessRefunded`, on a real redis-server: a job's id protects a
 * transaction only while BullMQ keeps the job, and the service makes a new refund once the first is
 * `completed` (spec §3). So a transaction enqueued again after its job was removed
 * (`removeOnComplete`, a new day's run) would be refunded twice; with the guard, its job fails for
 * good (`UnrecoverableError`) naming the completed refund, nothing sent. A job's own
 * `unlessRefunded` (the producer's intent) wins over the processor's.
 */

import type { Job } from 'bullmq';
import { RequestValidationError } from 'partner-sdk';
import { enqueueRefunds, type QueueJobResult, refundProcessor } from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { useBullmq } from '../helpers/bullmq-queues';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';
import { withTimeout } from '../helpers/waits';

const bullmq = useBullmq();

type Ended = { state: 'completed'; result: QueueJobResult } | { state: 'failed'; job: Job };

function setup(unlessRefunded?: boolean) {
  const { mock, seller } = kitClients(createMockPartnerApi({ refundPolls: 0 }));
  const queue = bullmq.queue();
  const ended = new Map<string, (end: Ended) => void>();
  const worker = bullmq.worker(queue.name, refundProcessor(seller, { queue, unlessRefunded }));
  worker.on('completed', (job, result: QueueJobResult) => {
    ended.get(job.data.transactionHash)?.({ state: 'completed', result });
  });
  worker.on('failed', (job) => {
    // A failure BullMQ will retry is not an end: only the last one is.
    if (job?.finishedOn) ended.get(job.data.transactionHash)?.({ state: 'failed', job });
  });
  /** Enqueues one job of `hash` (removed once it ended) and resolves with how it ended. */
  const run = (hash: string, job: { unlessRefunded?: boolean } = {}) => {
    const end = new Promise<Ended>((resolve) => ended.set(hash, resolve));
    const item = { transactionHash: hash, ...job };
    const options = { backoffMs: 50, jobOptions: { removeOnComplete: true, removeOnFail: true } };
    return enqueueRefunds(queue, [item], options).then(() =>
      withTimeout(end, 20_000, `the job of ${hash} to end`),
    );
  };
  const posts = (hash: string) => refundPostsTo(mock, hash);
  const refunded = async (hash: string) => {
    await seller.refunds.waitForCompletion(hash, { interval: 1 });
    return (await seller.refunds.list(hash)).length;
  };
  return { mock, seller, queue, run, posts, refunded };
}

describe('refundProcessor with unlessRefunded, on a real redis-server', () => {
  it('a transaction enqueued again once its job was removed fails for good, naming the completed refund, nothing sent', async () => {
    const { mock, run, posts, refunded } = setup(true);
    const hash = mock.addTransaction();
    expect(await run(hash)).toMatchObject({ state: 'completed', result: { status: 'succeeded' } });
    expect(await refunded(hash)).toBe(1);

    const again = await run(hash);
    expect(again.state).toBe('failed');
    const { job } = again as { job: Job };
    // Failed for good on its first attempt: BullMQ does not retry a refusal.
    expect(job.attemptsMade).toBe(1);
    expect(job.opts.attempts).toBe(5);
    expect(job.failedReason).toMatch(
      new RegExp(`^AlreadyRefundedError: transaction ${hash} already has a completed refund \\(`),
    );
    expect(posts(hash)).toBe(1);
    expect(await refunded(hash)).toBe(1);
  }, 60_000);

  it('lets an active refund be answered with itself, and a fresh transaction be refunded', async () => {
    const { mock, run, posts } = setup(true);
    const active = mock.transactions.withActiveRefund;
    expect(await run(active)).toMatchObject({ result: { status: 'existing', key: active } });
    const fresh = mock.addTransaction();
    expect(await run(fresh)).toMatchObject({ result: { status: 'succeeded', key: fresh } });
    expect([posts(active), posts(fresh)]).toEqual([1, 1]);
  }, 60_000);

  it("a job's own unlessRefunded wins over the processor's: the producer's intent travels with the job", async () => {
    const guarded = setup(true);
    const past = guarded.mock.transactions.withPastRefund;
    const forced = await guarded.run(past, { unlessRefunded: false });
    expect(forced).toMatchObject({ state: 'completed', result: { status: 'succeeded' } });
    expect(await guarded.refunded(past)).toBe(2);

    const open = setup();
    const other = open.mock.transactions.withPastRefund;
    const refused = await open.run(other, { unlessRefunded: true });
    expect(refused.state).toBe('failed');
    expect((refused as { job: Job }).job.failedReason).toMatch(/^AlreadyRefundedError: /);
    expect(open.posts(other)).toBe(0);
    // Off by default, as for requestRefunds: the job requests what it is given.
    expect(await open.run(other)).toMatchObject({ result: { status: 'succeeded' } });
    expect(await open.refunded(other)).toBe(2);
  }, 60_000);

  it('an item whose unlessRefunded is not a boolean is refused before anything is enqueued', async () => {
    const { mock, queue } = setup();
    const item = { transactionHash: mock.addTransaction(), unlessRefunded: 'yes' as never };
    const refused = await enqueueRefunds(queue, [item]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RequestValidationError);
    expect((refused as Error).message).toMatch(/^Invalid item 0: /);
    expect((refused as RequestValidationError).issues[0]?.path).toEqual(['unlessRefunded']);
    expect(await queue.count()).toBe(0);
  });
});
