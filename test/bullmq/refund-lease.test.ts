/**
 * A refund is made once per transaction on a real redis-server, with BullMQ workers in this
 * process: a stalled job handed to a second worker while the first worker's request is still on
 * its way; a transaction enqueued twice; a job retried after a lost answer. The kit is stricter
 * than the service about repeats: a refund request for a transaction it already refunded first
 * ends that refund, so a blind repeat makes a second refund instead of being answered "already
 * active".
 */

import { enqueueRefunds, type QueueJobResult, refundProcessor } from 'partner-sdk/bullmq';
import { createMockPartnerApi, type MockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { useBullmq } from '../helpers/bullmq-queues';
import { kitClients } from '../helpers/kit-clients';
import { sleep, waitFor } from '../helpers/waits';
import { completeRefund } from './kit-server';

const bullmq = useBullmq();

const REFUND = /\/financial\/refund\/([^/?]+)$/;

/**
 * The kit behind a network that can hold a refund request on its way (before the kit acts) or
 * lose its answer (after the kit acted).
 */
function strictKit(mock: MockPartnerApi) {
  const refunded = new Set<string>();
  const held = new Map<string, { arrived: () => void; gate: Promise<void> }>();
  const lose = new Set<string>();
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const hash = request.method === 'POST' ? REFUND.exec(new URL(request.url).pathname)?.[1] : '';
    const hold = hash ? held.get(hash) : undefined;
    if (hash && hold) {
      held.delete(hash);
      hold.arrived();
      await hold.gate;
    }
    if (hash && refunded.has(hash)) await completeRefund(mock, hash, request.headers);
    const answer = await mock.fetch(request);
    if (hash && answer.status < 300) {
      refunded.add(hash);
      if (lose.delete(hash)) throw new TypeError('fetch failed');
    }
    return answer;
  };
  /** Holds the next refund request of `hash` on its way until `release` is called. */
  const hold = (hash: string) => {
    let arrive = () => {};
    let release = () => {};
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    held.set(hash, { arrived: arrive, gate });
    return { arrived, release: () => release() };
  };
  return { fetch, hold, lose };
}

/**
 * `bySeller`: the jobs marked for the kit's person seller, and the workers given a function of the
 * seller (one queue for many sellers) instead of that seller's client.
 */
function setup(bySeller = false) {
  const mock = createMockPartnerApi({ refundPolls: 0 });
  const kit = strictKit(mock);
  const seller = (runner: string) =>
    kitClients(mock, { fetch: kit.fetch, defaultHeaders: { 'x-runner': runner } }).seller;
  const tokens = new Map([['acct-person', mock.sellers.person.publicToken]]);
  const clientsOf = (runner: string) => {
    if (!bySeller) return seller(runner);
    const { client } = kitClients(mock, {
      fetch: kit.fetch,
      defaultHeaders: { 'x-runner': runner },
    });
    return async (ref: string) => client.forUser(tokens.get(ref) as string);
  };
  /** What the enqueue calls add: the seller's mark, when the workers pick clients by it. */
  const marks = bySeller ? { seller: 'acct-person' } : {};
  const queue = bullmq.queue();
  const client = bullmq.redis();
  // Leases on a connection of their own, or (no `redis` given) on the queue's.
  const worker = (
    runner: string,
    options: Record<string, unknown> = {},
    leases = 'own',
    leaseMs?: number,
  ) => {
    const redisOption = leases === 'own' ? { redis: client } : {};
    const processor = refundProcessor(clientsOf(runner), { queue, ...redisOption, leaseMs });
    return bullmq.worker(queue.name, processor, options);
  };
  const refunds = async (hash: string) => {
    mock.setRateLimit(undefined);
    return (await seller('check').refunds.list(hash)).length;
  };
  const posts = (hash: string) =>
    mock.requests.filter((r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`);
  /** The job completes reconciled: worker A's one request made the only refund. */
  const reconciledOnce = async (hash: string) => {
    const id = `refund-request/${hash}`;
    await waitFor(
      async () => (await queue.getJob(id).then((j) => j?.getState())) === 'completed',
      'the job to complete',
      20_000,
    );
    const job = await queue.getJob(id);
    expect(job!.returnvalue as QueueJobResult).toMatchObject({ key: hash, reconciled: true });
    expect(posts(hash).map((r) => r.headers['x-runner'])).toEqual(['a']);
    expect(await refunds(hash)).toBe(1);
  };
  return { mock, kit, queue, worker, refunds, posts, reconciledOnce, marks };
}

describe('refundProcessor on a real redis-server', () => {
  it.each([
    ['own', 'a seller client'],
    ['queue', 'a seller client'],
    ['queue', 'a function of the seller'],
  ])(
    'a stalled job taken over by a second worker while the first one still waits for its answer: one refund (leases on the %s connection, workers of %s)',
    async (leases, clients) => {
      const bySeller = clients === 'a function of the seller';
      const { mock, kit, queue, worker: anyWorker, posts, reconciledOnce, marks } = setup(bySeller);
      const worker = (runner: string, options: Record<string, unknown>) =>
        anyWorker(runner, options, leases);
      const hash = mock.addTransaction();
      const held = kit.hold(hash);
      await enqueueRefunds(queue, [{ transactionHash: hash }], { backoffMs: 50, ...marks });
      // Worker A's lock runs out within half a second and is never renewed: its job stalls while
      // its refund request is held on the way to the kit.
      worker('a', { lockDuration: 500, skipLockRenewal: true, skipStalledCheck: true });
      await held.arrived;
      const b = worker('b', { lockDuration: 5_000, stalledInterval: 200 });
      const takenOver = async () => {
        const job = await queue.getJob(`refund-request/${hash}`);
        return (job?.attemptsStarted ?? 0) >= 2;
      };
      await waitFor(takenOver, 'worker b to take the stalled job', 20_000);
      // B runs the job now; it must not send while A's request is in flight: nothing marks a
      // request not sent, so the test gives B time to send one.
      await sleep(600);
      expect(posts(hash)).toEqual([]);
      held.release();
      await reconciledOnce(hash);
      await b.close();
    },
    60_000,
  );

  it('a second run that finds the lease still renewed after a whole leaseMs fails with RefundLeaseBusyError, retried by BullMQ; once the first answer is in, the retry reconciles: one refund', async () => {
    const { mock, kit, queue, worker, posts, reconciledOnce } = setup();
    const hash = mock.addTransaction();
    const held = kit.hold(hash);
    await enqueueRefunds(queue, [{ transactionHash: hash }], { backoffMs: 50 });
    // Worker A stalls while its request is held on the way; its lease stays renewed meanwhile.
    worker('a', { lockDuration: 500, skipLockRenewal: true, skipStalledCheck: true }, 'own', 300);
    await held.arrived;
    const b = worker('b', { lockDuration: 5_000, stalledInterval: 200 }, 'own', 300);
    const busy = new Promise<{ name: string; final: boolean }>((resolve) => {
      b.on('failed', (job, error) => {
        const final = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
        resolve({ name: error.name, final });
      });
    });
    expect(await busy).toEqual({ name: 'RefundLeaseBusyError', final: false });
    expect(posts(hash)).toEqual([]);
    held.release();
    await reconciledOnce(hash);
  }, 60_000);

  it.each([['a seller client'], ['a function of the seller']])(
    'a transaction enqueued twice is one job and one refund; a job retried after a lost answer reconciles: one refund (workers of %s)',
    async (clients) => {
      const { mock, kit, queue, worker, refunds, posts, marks } = setup(
        clients !== 'a seller client',
      );
      const [twice, lost] = [mock.addTransaction(), mock.addTransaction()];
      kit.lose.add(lost);
      const items = [{ transactionHash: twice }, { transactionHash: lost }];
      await enqueueRefunds(queue, [...items, { transactionHash: twice }], {
        backoffMs: 50,
        ...marks,
      });
      await enqueueRefunds(queue, [{ transactionHash: twice }], { backoffMs: 50, ...marks });
      const counts = await queue.getJobCounts(
        'waiting',
        'active',
        'completed',
        'failed',
        'delayed',
      );
      expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBe(2);
      worker('c', { concurrency: 2 });
      const bothCompleted = async () => (await queue.getJobCounts('completed')).completed === 2;
      await waitFor(bothCompleted, 'both jobs to complete', 20_000);
      const results = await Promise.all(
        items.map(async (item) => {
          const job = await queue.getJob(`refund-request/${item.transactionHash}`);
          return job!.returnvalue as QueueJobResult;
        }),
      );
      expect(results).toMatchObject([
        { key: twice, reconciled: false },
        { key: lost, reconciled: true },
      ]);
      expect(posts(twice)).toHaveLength(1);
      expect(posts(lost)).toHaveLength(1);
      expect(await refunds(twice)).toBe(1);
      expect(await refunds(lost)).toBe(1);
    },
    60_000,
  );
});
