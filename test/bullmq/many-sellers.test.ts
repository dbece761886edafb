/**
 * One queue for many sellers: jobs carry a `seller` reference of the partner's own (never a
 * token), and a worker given a function of it runs each job as that seller's client. Tried
 * against the testing kit, which keeps sellers apart (a seller cannot refund another's
 * transaction), in-process and on a real redis-server with a real BullMQ worker.
 */

import { UnrecoverableError } from 'bullmq';
import { type PartnerClient, RequestValidationError } from 'partner-sdk';
import {
  enqueueRefunds,
  offerUpdateProcessor,
  type ProcessorJob,
  type QueueJobResult,
  type RefundJobData,
  refundProcessor,
  refundWaitProcessor,
} from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { useBullmq } from '../helpers/bullmq-queues';
import { capturingQueue } from '../helpers/capturing-queue';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';
import { withTimeout } from '../helpers/waits';

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
    expect(transient).toBe(outage);
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
