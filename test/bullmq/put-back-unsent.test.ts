/**
 * A refund job put back before its request went out (the queue held by a 429, a login the client
 * holds back) runs again without the reconciling read of a job run again: BullMQ counts the
 * put-back as a start (`attemptsStarted`), so it looks like a stalled job, but the processor
 * recorded, on the leases' Redis, that no run of the job sent anything. Never at the cost of a
 * second refund: a job whose earlier run sent its request (refused 429, or run to the end and
 * then lost) still reconciles, however many put-backs came after it. Real BullMQ workers end to
 * end, then the runs one by one (as BullMQ numbers them) on a real redis-server.
 */

import { RateLimitError } from 'bullmq';
import {
  enqueueRefunds,
  type ProcessorJob,
  type QueueJobResult,
  type RefundJobData,
  refundProcessor,
} from 'partner-sdk/bullmq';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useBullmq } from '../helpers/bullmq-queues';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';
import { waitFor } from '../helpers/waits';

const bullmq = useBullmq();

afterEach(() => {
  vi.useRealTimers();
});

/** The reads of `hash`'s refunds the kit answered (a reconciliation, or any other read). */
const readsOf = (mock: MockPartnerApi, hash: string) =>
  mock.requests.filter((r) => r.method === 'GET' && r.path.includes(hash)).length;

/** A queue whose hold a test sets: `held` milliseconds while it lasts. */
function heldQueue() {
  const state = { held: 0, holds: [] as number[] };
  const queue = {
    rateLimit: async (ms: number) => void state.holds.push(ms),
    getRateLimitTtl: async () => state.held,
  };
  return { queue, state };
}

const run = (
  hash: string,
  attemptsStarted: number,
  timestamp = 1_000,
): ProcessorJob<RefundJobData> => ({
  id: `refund-request/${hash}`,
  data: { transactionHash: hash },
  timestamp,
  attemptsMade: 0,
  attemptsStarted,
});

describe('a refund job put back unsent', () => {
  it('put back by a held queue, it runs again without a reconciling read (real workers)', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const { seller } = kitClients(mock, { clientToken: mock.credentials.clientToken });
    const queue = bullmq.queue();
    const hash = mock.addTransaction();
    // Long enough that the worker, however slow to connect, takes the job while the hold lasts.
    await queue.rateLimit(2_000);
    await enqueueRefunds(queue, [{ transactionHash: hash }]);
    bullmq.worker(queue.name, refundProcessor(seller, { queue }));
    const id = `refund-request/${hash}`;
    await waitFor(
      async () => (await queue.getJob(id).then((j) => j?.getState())) === 'completed',
      'the job to complete',
      15_000,
    );
    const job = await queue.getJob(id);
    expect(job!.attemptsStarted).toBeGreaterThan(1);
    expect(job!.returnvalue as QueueJobResult).toMatchObject({ reconciled: false });
    expect(readsOf(mock, hash)).toBe(0);
    expect(refundPostsTo(mock, hash)).toBe(1);
  });

  it('put back twice, its third run reads nothing; a job enqueued again under its id is not taken for it', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const { seller } = kitClients(mock, { clientToken: mock.credentials.clientToken });
    const { queue, state } = heldQueue();
    const processor = refundProcessor(seller, { queue, redis: bullmq.redis() });
    const hash = mock.addTransaction();
    state.held = 500;
    await expect(processor(run(hash, 1))).rejects.toBeInstanceOf(RateLimitError);
    await expect(processor(run(hash, 2))).rejects.toBeInstanceOf(RateLimitError);
    state.held = 0;
    await expect(processor(run(hash, 3))).resolves.toMatchObject({ reconciled: false });
    expect(readsOf(mock, hash)).toBe(0);
    // The same id enqueued again (the first job removed): its second run is not the first job's.
    await expect(processor(run(hash, 2, 2_000))).resolves.toMatchObject({ reconciled: true });
    expect(readsOf(mock, hash)).toBe(1);
    expect(refundPostsTo(mock, hash)).toBe(1);
  });

  it('put back on a login the client holds back, even from the refund request itself, it runs again without a read', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const { clientToken: _given, ...credentials } = mock.credentials;
    const { seller } = kitClients(mock, credentials);
    const { queue } = heldQueue();
    const processor = refundProcessor(seller, { queue, redis: bullmq.redis() });
    const hash = mock.addTransaction();
    mock.failNext({ status: 429, retryAfter: 120, path: '/auth' });
    await expect(processor(run(hash, 1))).rejects.toBeInstanceOf(RateLimitError);
    vi.advanceTimersByTime(120_000);
    await expect(processor(run(hash, 2))).resolves.toMatchObject({ reconciled: false });
    expect(readsOf(mock, hash)).toBe(0);
    expect(refundPostsTo(mock, hash)).toBe(1);
  });

  it('a run whose request went out (refused 429) is reconciled after, put-backs or not', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const { seller } = kitClients(mock, { clientToken: mock.credentials.clientToken });
    const { queue, state } = heldQueue();
    const processor = refundProcessor(seller, { queue, redis: bullmq.redis() });
    const hash = mock.addTransaction();
    mock.failNext({ status: 429, retryAfter: 1, path: `/financial/refund/${hash}` });
    await expect(processor(run(hash, 1))).rejects.toBeInstanceOf(RateLimitError);
    state.held = 500;
    await expect(processor(run(hash, 2))).rejects.toBeInstanceOf(RateLimitError);
    state.held = 0;
    await expect(processor(run(hash, 3))).resolves.toMatchObject({ reconciled: false });
    expect(readsOf(mock, hash)).toBe(1);
    expect(refundPostsTo(mock, hash)).toBe(2);
  });

  it('a run that made the refund and was lost to BullMQ (stalled), then put back: the next run finds it, one refund', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const { seller } = kitClients(mock, { clientToken: mock.credentials.clientToken });
    const { queue, state } = heldQueue();
    const processor = refundProcessor(seller, { queue, redis: bullmq.redis() });
    const hash = mock.addTransaction();
    // Its answer never reached BullMQ: the job stalled, and was started again.
    await processor(run(hash, 1));
    state.held = 500;
    await expect(processor(run(hash, 2))).rejects.toBeInstanceOf(RateLimitError);
    state.held = 0;
    await expect(processor(run(hash, 3))).resolves.toMatchObject({
      status: 'succeeded',
      reconciled: true,
    });
    expect(refundPostsTo(mock, hash)).toBe(1);
    expect((await seller.refunds.list(hash)).length).toBe(1);
  });
});
