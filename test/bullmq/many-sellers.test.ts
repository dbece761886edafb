/**
 * One queue for many sellers: jobs carry a `seller` reference of the partner's own (never a
 * token), and a worker given a function of it runs each job as that seller's client. Tried
 * against the testing kit, which keeps sellers apart (a seller cannot refund another's
 * transaction), in-process and on a real redis-server with a real BullMQ worker.
 */

import { randomUUID } from 'node:crypto';
import { type Processor, type Queue, UnrecoverableError } from 'bullmq';
import { APIUserAbortError, type PartnerClient, RequestValidationError } from 'partner-sdk';
import {
  enqueueRefunds,
  offerUpdateProcessor,
  type ProcessorJob,
  type QueueJobResult,
  type RefundJobData,
  refundProcessor,
  refundWaitProcessor,
} from 'partner-sdk/bullmq';
import { fleetPace } from 'partner-sdk/redis';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { useBullmq } from '../helpers/bullmq-queues';
import { capturingQueue } from '../helpers/capturing-queue';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';
import { sleep, waitFor, withTimeout } from '../helpers/waits';

/** The kit with a third seller, and the partner's own map of seller references to tokens. */
function marketplace() {
  const { mock, client } = kitClients(createMockPartnerApi({ refundPolls: 0 }));
  const third = mock.addSeller({ type: 'person', name: 'Ana Terceira' });
  const tokens = new Map([
    ['acct-person', mock.sellers.person.publicToken],
    ['acct-company', mock.sellers.company.publicToken],
    ['acct-third', third.publicToken],
  ]);
  const codes = new Map([
    ['acct-person', mock.sellers.person.code],
    ['acct-company', mock.sellers.company.code],
    ['acct-third', third.code],
  ]);
  const resolved: string[] = [];
  const forSeller = async (seller: string) => {
    resolved.push(seller);
    const token = tokens.get(seller);
    if (token === undefined) throw new RequestValidationError(`Unknown seller`, []);
    return client.forUser(token);
  };
  const pauses: number[] = [];
  const queue = { rateLimit: async (ms: number) => void pauses.push(ms) };
  return { mock, client, tokens, codes, forSeller, resolved, queue, pauses };
}

const job = <D extends object>(data: D): ProcessorJob<D> => ({
  id: 'job',
  data,
  timestamp: Date.now() - 1_000,
  attemptsMade: 0,
  attemptsStarted: 1,
});

/** The bearer each refund request to `hash` carried. */
const bearersOf = (mock: ReturnType<typeof marketplace>['mock'], hash: string) =>
  mock.requests
    .filter((r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`)
    .map((r) => r.headers.authorization);

/**
 * Runs `workers` workers of `processor` on `queue` until `count` jobs have completed or failed for
 * good (or out of their five attempts), by job id.
 */
function settled(
  bullmq: ReturnType<typeof useBullmq>,
  queue: Queue,
  processor: Processor,
  count: number,
  workers = 4,
) {
  const outcomes = new Map<string, QueueJobResult | Error>();
  return new Promise<Map<string, QueueJobResult | Error>>((resolve) => {
    const note = (id: string | undefined, outcome: QueueJobResult | Error) => {
      outcomes.set(id!, outcome);
      if (outcomes.size === count) resolve(outcomes);
    };
    for (let i = 0; i < workers; i++) {
      const worker = bullmq.worker(queue.name, processor, { concurrency: 8 });
      worker.on('completed', (job, result: QueueJobResult) => note(job.id, result));
      worker.on('failed', (job, error) => {
        if (job && (error.name === 'UnrecoverableError' || job.attemptsMade >= 5)) {
          note(job.id, error);
        }
      });
    }
  });
}

describe('partner-sdk/bullmq: one queue for many sellers', () => {
  it("runs each job as its seller's client, picked by the job's seller reference", async () => {
    const { mock, tokens, codes, forSeller, resolved, queue } = marketplace();
    const process = refundProcessor(forSeller, { queue });
    const jobs = [...codes].flatMap(([seller, code]) =>
      [1, 2].map(() => ({ seller, transactionHash: mock.addTransaction(4_990, { seller: code }) })),
    );
    for (const data of jobs) {
      expect(await process(job(data))).toMatchObject({
        status: 'succeeded',
        key: data.transactionHash,
      });
    }
    expect(resolved).toEqual(jobs.map((data) => data.seller));
    for (const data of jobs) {
      expect(bearersOf(mock, data.transactionHash)).toEqual([`Bearer ${tokens.get(data.seller)}`]);
    }
    for (const data of jobs) expect(refundPostsTo(mock, data.transactionHash)).toBe(1);
  });

  it('a job marked for one seller never runs as another: the kit refuses a foreign transaction', async () => {
    const { mock, codes, forSeller, queue } = marketplace();
    // The producer's mistake: the company's transaction enqueued as the person's.
    const hash = mock.addTransaction(4_990, { seller: codes.get('acct-company')! });
    const refused = await refundProcessor(forSeller, { queue })(
      job({ seller: 'acct-person', transactionHash: hash }),
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnrecoverableError);
    expect((refused as Error).message).toMatch(/^NotFoundError 404: /);
    expect(bearersOf(mock, hash)).toEqual([`Bearer ${mock.sellers.person.publicToken}`]);
  });

  it('the waits and offer processors take a function of the seller too', async () => {
    const { mock, codes, forSeller, resolved, queue } = marketplace();
    const hash = mock.addTransaction(4_990, { seller: codes.get('acct-company')! });
    await refundProcessor(forSeller, { queue })(
      job({ seller: 'acct-company', transactionHash: hash }),
    );
    const waited = await refundWaitProcessor(forSeller, { queue })(
      job({ seller: 'acct-company', transactionHash: hash }),
    );
    expect(waited).toMatchObject({
      status: 'succeeded',
      key: hash,
      result: { status: 'completed' },
    });
    const { hash: productHash, offerCode } = mock.products.recurring;
    const updated = await offerUpdateProcessor(forSeller, { queue })(
      job({ seller: 'acct-person', productHash, offerCode, params: { price: 12_345 } }),
    );
    expect(updated).toMatchObject({ status: 'succeeded', result: { price: 12_345 } });
    expect(mock.getOffer(productHash, offerCode)?.price).toBe(12_345);
    expect(resolved).toEqual(['acct-company', 'acct-company', 'acct-person']);
  });

  it("refuses, for good and with nothing sent, a job marked for a seller on a worker of one seller's client", async () => {
    const { mock, client, queue } = marketplace();
    const seller = client.forUser(mock.sellers.person.publicToken);
    const hash = mock.addTransaction();
    const refused = await refundProcessor(seller, { queue })(
      job({ seller: 'acct-person', transactionHash: hash }),
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnrecoverableError);
    expect((refused as Error).message).toMatch(/^RequestValidationError: Invalid job data.*fixed/);
    expect(refundPostsTo(mock)).toBe(0);
  });

  it('refuses, for good and with nothing sent, a job without a seller, or with a bad one, on a worker of a seller function', async () => {
    const { mock, forSeller, resolved, queue } = marketplace();
    const process = refundProcessor(forSeller, { queue });
    const hash = mock.addTransaction();
    const secret = mock.sellers.person.publicToken;
    for (const seller of [undefined, '', 42, 'x'.repeat(257), { secret }]) {
      const data = { transactionHash: hash, seller } as RefundJobData;
      const refused = await process(job(data)).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(UnrecoverableError);
      expect((refused as Error).message).toMatch(/^RequestValidationError: Invalid job data/);
    }
    // A token put where the reference goes is never quoted in a failed job's reason.
    const leaked = await process(
      job({ transactionHash: hash, seller: `${secret}${'x'.repeat(300)}` }),
    ).catch((e: unknown) => e);
    expect((leaked as Error).message).not.toContain(secret);
    expect(resolved).toEqual([]);
    expect(refundPostsTo(mock)).toBe(0);
  });

  it('fails for good when the seller function refuses or returns no client; retries when it fails otherwise', async () => {
    const { mock, forSeller, queue } = marketplace();
    const hash = mock.addTransaction();
    const unknown = await refundProcessor(forSeller, { queue })(
      job({ seller: 'acct-nobody', transactionHash: hash }),
    ).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UnrecoverableError);
    const notClient = await refundProcessor(async () => ({}) as PartnerClient, { queue })(
      job({ seller: 'acct-person', transactionHash: hash }),
    ).catch((e: unknown) => e);
    expect(notClient).toBeInstanceOf(UnrecoverableError);
    expect((notClient as Error).message).toMatch(/Invalid seller function result/);
    const outage = new Error('secret store unreachable');
    const transient = await refundProcessor(() => Promise.reject(outage), { queue })(
      job({ seller: 'acct-person', transactionHash: hash }),
    ).catch((e: unknown) => e);
    // Retried as the error it is, named in the job's reason; the function's own error untouched.
    expect(transient).toBeInstanceOf(Error);
    expect(transient).not.toBeInstanceOf(UnrecoverableError);
    expect((transient as Error).message).toBe('Error: secret store unreachable');
    expect(outage.message).toBe('secret store unreachable');
    expect(refundPostsTo(mock)).toBe(0);
  });

  it('refuses, for good and with nothing sent, a client the seller function already gave for another seller', async () => {
    const { mock, client, codes, queue } = marketplace();
    // The partner's bug: one client kept for every seller (a cache without a key).
    let kept: PartnerClient | ReturnType<PartnerClient['forUser']> | undefined;
    const forSeller = () => (kept ??= client.forUser(mock.sellers.person.publicToken));
    const process = refundProcessor(forSeller, { queue });
    const mine = mock.addTransaction(4_990, { seller: codes.get('acct-person')! });
    const theirs = mock.addTransaction(4_990, { seller: codes.get('acct-company')! });
    const again = mock.addTransaction(4_990, { seller: codes.get('acct-person')! });
    expect(await process(job({ seller: 'acct-person', transactionHash: mine }))).toMatchObject({
      status: 'succeeded',
    });
    const refused = await process(job({ seller: 'acct-company', transactionHash: theirs })).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(UnrecoverableError);
    expect((refused as Error).message).toMatch(
      /^RequestValidationError: Invalid seller function result.*another seller/,
    );
    expect((refused as Error).message).not.toMatch(/acct-/);
    expect(refundPostsTo(mock, theirs)).toBe(0);
    // The same client for the same seller, as a cache per seller gives, is its client still.
    expect(await process(job({ seller: 'acct-person', transactionHash: again }))).toMatchObject({
      status: 'succeeded',
    });
    // The partner's own client, acting for no seller, given for two: the same refusal.
    const root = refundWaitProcessor(() => client, { queue });
    await root(job({ seller: 'acct-person', transactionHash: mine })).catch(() => {});
    await expect(root(job({ seller: 'acct-third', transactionHash: mine }))).rejects.toThrow(
      /another seller/,
    );
  });

  it('a job BullMQ cancels while the seller function still waits (a token store that hangs) ends at once, nothing sent; the function is handed the signal', async () => {
    const { mock, queue } = marketplace();
    const hash = mock.addTransaction();
    const given: (AbortSignal | undefined)[] = [];
    const hanging = (_seller: string, _job: unknown, signal?: AbortSignal) => {
      given.push(signal);
      return new Promise<never>(() => {});
    };
    for (const make of [refundProcessor, refundWaitProcessor]) {
      const cancel = new AbortController();
      const run = make(hanging, { queue })(
        job({ seller: 'acct-person', transactionHash: hash }),
        'lock-token',
        cancel.signal,
      ).catch((e: unknown) => e);
      await waitFor(() => given.length > 0, 'the seller function to be asked');
      cancel.abort(new Error('cancelled by the operator'));
      const ended = (await withTimeout(run, 2_000, 'the cancelled job to end')) as Error;
      expect(ended).toBeInstanceOf(APIUserAbortError);
      expect((ended.cause as Error).message).toBe('cancelled by the operator');
      expect(given.pop()).toBe(cancel.signal);
    }
    expect(refundPostsTo(mock)).toBe(0);
  });

  it('refuses a processor made with neither a client nor a function', () => {
    const queue = { rateLimit: async () => {} };
    for (const clients of [undefined, null, 'token', {}]) {
      expect(() => refundProcessor(clients as never, { queue })).toThrow(
        /Invalid refundProcessor arguments.*client/,
      );
    }
  });
});

describe('enqueueRefunds with a seller', () => {
  it("stamps the call's seller on every job, and keeps an item's own when it is the same", async () => {
    const { added, queue } = capturingQueue();
    const items = [{ transactionHash: 'trx_1' }, { transactionHash: 'trx_2', seller: 'acct-9' }];
    await enqueueRefunds(queue, items, { seller: 'acct-9' });
    expect(added.map((j) => j.data)).toEqual([
      { transactionHash: 'trx_1', seller: 'acct-9' },
      { transactionHash: 'trx_2', seller: 'acct-9' },
    ]);
    expect(items[0]).toEqual({ transactionHash: 'trx_1' });
  });

  it("refuses an item whose seller differs from the call's, and a bad seller option, unquoted, nothing enqueued", async () => {
    const { added, queue } = capturingQueue();
    const mixed = [{ transactionHash: 'trx_1', seller: 'acct-1' }];
    await expect(enqueueRefunds(queue, mixed, { seller: 'acct-2' })).rejects.toThrow(
      /^Invalid item 0: Invalid job data.*differs/,
    );
    const token = 'tok_live_very_secret';
    for (const seller of ['', 7, `${token}${'x'.repeat(300)}`]) {
      const refused = await enqueueRefunds(queue, [{ transactionHash: 'trx_1' }], {
        seller: seller as string,
      }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RequestValidationError);
      expect((refused as Error).message).toMatch(/Invalid enqueueRefunds options.*seller/);
      expect((refused as Error).message).not.toContain(token);
    }
    const bad = [{ transactionHash: 'trx_1', seller: 5 as unknown as string }];
    await expect(enqueueRefunds(queue, bad)).rejects.toThrow(/^Invalid item 0: Invalid job data/);
    expect(added).toEqual([]);
  });

  it("a seller's token in an item is refused, and the refusal says what to give instead", async () => {
    const { queue } = capturingQueue();
    const items = [{ transactionHash: 'trx_1', sellerToken: 'tok' }] as unknown as RefundJobData[];
    await expect(enqueueRefunds(queue, items)).rejects.toThrow(/`seller` reference/);
  });
});

describe('one queue for many sellers, on a real redis-server', () => {
  const bullmq = useBullmq();

  it('a real worker with a seller function refunds each seller’s transactions as that seller, once each', async () => {
    const { mock, codes, forSeller } = marketplace();
    const queue = bullmq.queue();
    const results: QueueJobResult[] = [];
    const done = new Promise<void>((resolve) => {
      const worker = bullmq.worker(queue.name, refundProcessor(forSeller, { queue }), {
        concurrency: 4,
      });
      worker.on('completed', (_job, result: QueueJobResult) => {
        results.push(result);
        if (results.length === 30) resolve();
      });
    });
    const bySeller = new Map<string, string[]>();
    for (const [seller, code] of codes) {
      const hashes = Array.from({ length: 10 }, () => mock.addTransaction(4_990, { seller: code }));
      bySeller.set(seller, hashes);
      const items = hashes.map((transactionHash) => ({ transactionHash }));
      await enqueueRefunds(queue, items, { seller });
    }
    await withTimeout(done, 30_000, 'thirty jobs to complete');
    expect(results.every((r) => r.status === 'succeeded')).toBe(true);
    for (const [seller, hashes] of bySeller) {
      const client = await forSeller(seller);
      for (const hash of hashes) {
        expect(refundPostsTo(mock, hash)).toBe(1);
        expect(await client.refunds.list(hash)).toHaveLength(1);
      }
    }
  }, 60_000);
});

/**
 * Three sellers of the kit behind a network where a seller's token can be revoked (the kit then
 * answers its bearer 401, as it does any unknown one), and a seller function as the guide's
 * snippet has it: the token read from the partner's map, `forUser` refusing none.
 */
function revocable() {
  const { mock, tokens, codes } = marketplace();
  const revoked = new Set<string>();
  const answered: { at: number; method: string; pathname: string; status: number }[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const bearer = request.headers.get('authorization')?.replace(/^Bearer /, '');
    if (bearer && revoked.has(bearer)) {
      return Response.json({ message: 'Unauthenticated.' }, { status: 401 });
    }
    const answer = await mock.fetch(request);
    const { pathname } = new URL(request.url);
    answered.push({ at: Date.now(), method: request.method, pathname, status: answer.status });
    return answer;
  };
  const { client } = kitClients(mock, { fetch });
  const forSeller = async (seller: string) => client.forUser(tokens.get(seller) as string);
  const hashesOf = (seller: string, count: number) =>
    Array.from({ length: count }, () => mock.addTransaction(4_990, { seller: codes.get(seller)! }));
  return { mock, tokens, revoked, answered, forSeller, hashesOf };
}

describe('sellers unknown, revoked or rate-limited on one queue, on a real redis-server', () => {
  const bullmq = useBullmq();

  it("a seller the function does not know fails for good, nothing sent; a seller's token revoked mid-run fails that seller's later jobs for good, 401, the others' refunded", async () => {
    const { mock, tokens, revoked, forSeller, hashesOf } = revocable();
    const queue = bullmq.queue();
    const bySeller = new Map(
      ['acct-person', 'acct-company', 'acct-third'].map((s) => [s, hashesOf(s, 10)]),
    );
    const unknown = hashesOf('acct-person', 2);
    const third = bySeller.get('acct-third')!;
    // The third seller's token is revoked once its first refund is made.
    const processor = refundProcessor(forSeller, { queue });
    let thirdRuns = 0;
    const revoking: Processor = async (job, token, signal) => {
      if (job.data.seller === 'acct-third' && ++thirdRuns > 3) {
        revoked.add(tokens.get('acct-third')!);
      }
      return processor(job, token, signal);
    };
    const done = settled(bullmq, queue, revoking, 32, 2);
    await enqueueRefunds(
      queue,
      unknown.map((transactionHash) => ({ transactionHash })),
      {
        seller: 'acct-nobody',
        backoffMs: 10,
      },
    );
    for (const [seller, hashes] of bySeller) {
      await enqueueRefunds(
        queue,
        hashes.map((transactionHash) => ({ transactionHash })),
        { seller, backoffMs: 10 },
      );
    }
    const outcomes = await withTimeout(done, 30_000, 'thirty-two jobs to settle');
    const outcomeOf = (hash: string) => outcomes.get(`refund-request/${hash}`);
    for (const hash of unknown) {
      expect((outcomeOf(hash) as Error).message).toMatch(
        /^RequestValidationError: Invalid forUser/,
      );
      expect((await queue.getJob(`refund-request/${hash}`))!.attemptsMade).toBe(1);
      expect(refundPostsTo(mock, hash)).toBe(0);
    }
    const refusedThird = third.filter((hash) => outcomeOf(hash) instanceof Error);
    expect(refusedThird.length).toBeGreaterThan(0);
    for (const hash of refusedThird) {
      expect((outcomeOf(hash) as Error).message).toMatch(/^AuthenticationError 401: /);
      expect((await queue.getJob(`refund-request/${hash}`))!.attemptsMade).toBe(1);
    }
    for (const seller of ['acct-person', 'acct-company']) {
      for (const hash of bySeller.get(seller)!) {
        expect(outcomeOf(hash)).toMatchObject({ status: 'succeeded' });
        expect(bearersOf(mock, hash)).toEqual([`Bearer ${tokens.get(seller)}`]);
      }
    }
    // A revoked seller costs a login or two, not one per job.
    expect(mock.requests.filter((r) => r.path === '/auth').length).toBeLessThanOrEqual(3);
  }, 60_000);

  it("a worker's own limiter is not taken for a hold: its jobs run at its pace, none put back for ever", async () => {
    const { forSeller, hashesOf } = revocable();
    const queue = bullmq.queue();
    const processor = refundProcessor(forSeller, { queue }) as Processor;
    const outcomes = new Map<string, QueueJobResult>();
    const done = new Promise<void>((resolve) => {
      const worker = bullmq.worker(queue.name, processor, {
        concurrency: 4,
        limiter: { max: 2, duration: 200 },
      });
      worker.on('completed', (job, result: QueueJobResult) => {
        outcomes.set(job.id!, result);
        if (outcomes.size === 6) resolve();
      });
    });
    const items = hashesOf('acct-person', 6).map((transactionHash) => ({ transactionHash }));
    await enqueueRefunds(queue, items, { seller: 'acct-person' });
    await withTimeout(done, 20_000, 'six jobs under the limiter');
    expect([...outcomes.values()].every((o) => o.status === 'succeeded')).toBe(true);
  }, 30_000);

  it("a 429 answered for one seller holds every worker of the queue for its Retry-After, the other sellers' jobs included; then that seller's job runs again: one refund each", async () => {
    const { mock, tokens, answered, forSeller, hashesOf } = revocable();
    const queue = bullmq.queue();
    const pauses: number[] = [];
    const held = {
      rateLimit: (ms: number) => {
        pauses.push(ms);
        return queue.rateLimit(ms);
      },
      getBackend: () => queue.getBackend(),
      getRateLimitTtl: (max?: number) => queue.getRateLimitTtl(max),
    };
    const company = hashesOf('acct-company', 1)[0]!;
    mock.failNext({ status: 429, retryAfter: 1, path: `/financial/refund/${company}` });
    // Two workers without a limiter, as the guide's "One budget" has them: two machines.
    const processor = refundProcessor(forSeller, { queue: held }) as Processor;
    const done = settled(bullmq, queue, processor, 7, 2);
    await enqueueRefunds(queue, [{ transactionHash: company }], { seller: 'acct-company' });
    await waitFor(() => pauses.length > 0, 'the 429 to hold the queue', 10_000);
    const limited = answered.find((a) => a.status === 429)!;
    const others = hashesOf('acct-person', 6);
    const items = others.map((transactionHash) => ({ transactionHash }));
    await enqueueRefunds(queue, items, { seller: 'acct-person' });
    const outcomes = await withTimeout(done, 30_000, 'seven jobs to settle');
    expect(pauses).toEqual([1_000]);
    expect([...outcomes.values()].every((o) => !(o instanceof Error))).toBe(true);
    // Nothing of anyone's was sent while the queue was held (a few ms for Redis's own clock).
    const sentAfter = answered.filter((a) => a.at > limited.at).map((a) => a.at - limited.at);
    expect(Math.min(...sentAfter)).toBeGreaterThanOrEqual(950);
    const bearer = `Bearer ${tokens.get('acct-company')}`;
    expect(bearersOf(mock, company)).toEqual([bearer, bearer]);
    for (const hash of others) expect(refundPostsTo(mock, hash)).toBe(1);
    // Started more than once (the 429, perhaps a turn put back while held), one attempt
    // counted: the run that completed (BullMQ counts it on finishing).
    const job = (await queue.getJob(`refund-request/${company}`))!;
    expect(job.attemptsStarted).toBeGreaterThanOrEqual(2);
    expect(job.attemptsMade).toBe(1);
  }, 60_000);
});

describe('jobs of the wrong kind for their worker, on a real redis-server', () => {
  const bullmq = useBullmq();

  /** Fails the queue's jobs on `processor`'s worker; the reasons of the `count` that failed. */
  async function reasonsOf(queue: Queue, processor: Processor, count: number) {
    const reasons = new Map<string, string>();
    const done = new Promise<void>((resolve) => {
      const worker = bullmq.worker(queue.name, processor, { concurrency: 4 });
      worker.on('failed', (job) => {
        reasons.set(job!.id!, job!.failedReason);
        if (reasons.size === count) resolve();
      });
    });
    await withTimeout(done, 20_000, `${count} jobs to fail`);
    for (const id of reasons.keys()) {
      expect((await queue.getJob(id))!.attemptsMade).toBe(1);
    }
    return [...reasons.values()];
  }

  it("a job's seller edited in Redis to a number, an object or a 10 kB string fails for good on either worker, never quoted, nothing sent", async () => {
    const { mock, client, forSeller } = marketplace();
    const redis = bullmq.redis();
    const secret = mock.sellers.person.publicToken;
    const edits = [42, { secret }, `${secret}${'x'.repeat(10_000)}`, null, ''];
    for (const kind of ['seller function', 'one client'] as const) {
      const queue = bullmq.queue();
      const hashes = edits.map(() => mock.addTransaction());
      const items = hashes.map((transactionHash) => ({ transactionHash }));
      await enqueueRefunds(queue, items, { seller: 'acct-person' });
      for (const [i, hash] of hashes.entries()) {
        const key = `bull:${queue.name}:refund-request/${hash}`;
        const data = { transactionHash: hash, seller: edits[i] };
        await redis.hset(key, 'data', JSON.stringify(data));
      }
      const clients = kind === 'one client' ? client.forUser(secret) : forSeller;
      const reasons = await reasonsOf(queue, refundProcessor(clients, { queue }) as Processor, 5);
      for (const reason of reasons) {
        expect(reason).toMatch(/^RequestValidationError: Invalid job data/);
        expect(reason).not.toContain(secret);
        expect(reason.length).toBeLessThan(1_000);
      }
      for (const hash of hashes) expect(refundPostsTo(mock, hash)).toBe(0);
    }
  }, 60_000);

  it("a marked job on a worker of one seller's client, and an unmarked one on a worker of a seller function: each fails for good, nothing sent", async () => {
    const { mock, client, forSeller, resolved } = marketplace();
    const marked = bullmq.queue();
    const markedHash = mock.addTransaction();
    await enqueueRefunds(marked, [{ transactionHash: markedHash }], { seller: 'acct-person' });
    const seller = client.forUser(mock.sellers.person.publicToken);
    const [fixed] = await reasonsOf(
      marked,
      refundProcessor(seller, { queue: marked }) as Processor,
      1,
    );
    expect(fixed).toMatch(/^RequestValidationError: Invalid job data.*fixed/);
    const unmarked = bullmq.queue();
    const unmarkedHash = mock.addTransaction();
    await enqueueRefunds(unmarked, [{ transactionHash: unmarkedHash }]);
    const processor = refundProcessor(forSeller, { queue: unmarked }) as Processor;
    const [picked] = await reasonsOf(unmarked, processor, 1);
    expect(picked).toMatch(/^RequestValidationError: Invalid job data.*expected the job's seller/);
    expect(resolved).toEqual([]);
    expect(refundPostsTo(mock)).toBe(0);
  }, 60_000);
});

describe('a marketplace of thousands of sellers on one queue, on a real redis-server', () => {
  const bullmq = useBullmq();
  const SELLERS = 2_000;

  /** The kit with `SELLERS` sellers added, a transaction each, and the partner's map of tokens. */
  function thousands() {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const tokens = new Map<string, string>();
    const hashes = new Map<string, string>();
    for (let i = 0; i < SELLERS; i++) {
      const seller = mock.addSeller({ type: i % 2 ? 'company' : 'person' });
      tokens.set(`acct-${i}`, seller.publicToken);
      hashes.set(`acct-${i}`, mock.addTransaction(1_000 + i, { seller: seller.code }));
    }
    return { mock, tokens, hashes };
  }

  it.each([
    ['a new client each run', false],
    ['one client kept per seller, shared by its concurrent jobs', true],
  ])(
    "4 workers, a slow seller function that sometimes throws (%s), under the parent's fleetPace: each transaction refunded once, with its own seller's bearer",
    async (_, cached) => {
      const { mock, tokens, hashes } = thousands();
      const redis = bullmq.redis();
      const prefix = `pace-${randomUUID()}`;
      const pace = fleetPace(redis, { requestsPerSecond: 5_000, prefix });
      const { client } = kitClients(mock, { pace, clientToken: mock.credentials.clientToken });
      const kept = new Map<string, ReturnType<PartnerClient['forUser']>>();
      let calls = 0;
      // Slow (a token store across the network), and failing one call in fifty: BullMQ retries.
      const forSeller = async (seller: string) => {
        calls++;
        await sleep(calls % 7);
        if (calls % 50 === 0) throw new Error('token store unreachable');
        const made = kept.get(seller) ?? client.forUser(tokens.get(seller)!);
        if (cached) kept.set(seller, made);
        return made;
      };
      const queue = bullmq.queue();
      const done = settled(
        bullmq,
        queue,
        refundProcessor(forSeller, { queue }) as Processor,
        SELLERS,
      );
      for (const [seller, transactionHash] of hashes) {
        await enqueueRefunds(queue, [{ transactionHash }], { seller, backoffMs: 10 });
      }
      const outcomes = await withTimeout(done, 120_000, `${SELLERS} jobs to settle`);
      const failed = [...outcomes.values()].filter((o) => o instanceof Error);
      expect(failed).toEqual([]);
      for (const [seller, hash] of hashes) {
        expect(bearersOf(mock, hash)).toEqual([`Bearer ${tokens.get(seller)}`]);
      }
      expect(mock.requests.filter((r) => r.path === '/auth')).toEqual([]);
      expect(calls).toBeGreaterThan(SELLERS);
      // The sellers' clients paced by the parent's fleet pace: its budget is kept in Redis.
      expect(await redis.keys(`${prefix}*`)).not.toEqual([]);
    },
    180_000,
  );
});
