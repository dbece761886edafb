/**
 * Every option of `partner-sdk/bullmq`'s helpers, through the public API: a wrong one (negative,
 * fractional, NaN, Infinity, the wrong type, a batch id that would break the batch's Redis key) is
 * refused with `RequestValidationError` naming it and its bound, before anything is enqueued or
 * any Redis command is sent, and a processor's when it is made, not at its first job. A queue and
 * a Redis client that record what they are asked stand in: nothing here needs a server.
 */

import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { PartnerClient, RequestValidationError } from 'partner-sdk';
import {
  type EnqueueOptions,
  enqueueOfferUpdates,
  enqueueRefunds,
  enqueueRefundWaits,
  followBatch,
  offerUpdateProcessor,
  type RefundProcessorOptions,
  refundProcessor,
  refundWaitProcessor,
} from 'partner-sdk/bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server';

function recorders() {
  const sent: unknown[][] = [];
  const added: unknown[] = [];
  const redis = { call: async (...args: unknown[]) => void sent.push(args) };
  const queue = {
    name: 'refunds',
    addBulk: async (jobs: unknown[]) => {
      added.push(...jobs);
      return [];
    },
    toKey: (type: string) => `bull:refunds:${type}`,
    getJobCounts: async () => ({}),
    rateLimit: async () => {},
  };
  return { sent, added, redis, queue };
}

const seller = new PartnerClient({
  baseUrl: 'http://127.0.0.1:9/api/v1',
  clientToken: 'client-token',
  logLevel: 'off',
}).forUser('seller-token');

/** The error `run` throws or rejects with, `undefined` when it does neither. */
async function refusal(run: () => unknown): Promise<unknown> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** The error `run` throws, `undefined` when it throws none. */
function thrown(run: () => unknown): unknown {
  try {
    run();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** `error` is a RequestValidationError naming `path` in its issues and its message. */
function expectNamed(error: unknown, path: string[], words: RegExp): void {
  expect(error).toBeInstanceOf(RequestValidationError);
  const issue = (error as RequestValidationError).issues[0];
  expect(issue?.path).toEqual(path);
  expect(issue?.message).toMatch(words);
  expect((error as Error).message).toContain(path.join('.'));
}

const NOT_NUMBERS = [Number.NaN, Number.POSITIVE_INFINITY, '3', null];

describe('partner-sdk/bullmq: the enqueue helpers refuse a wrong option before anything is sent', () => {
  const cases: [keyof EnqueueOptions, unknown[], RegExp][] = [
    ['attempts', [-1, 0, 1.5, 1_001, ...NOT_NUMBERS], /whole number from 1 to 1000/],
    ['backoffMs', [-1, 0.5, 2 ** 31, ...NOT_NUMBERS], /whole number of milliseconds from 0/],
    ['jobOptions', ['priority', [], null, { jobId: 'mine' }], /BullMQ job options|set from/],
    ['redis', [{}, 'redis://127.0.0.1:6379', null], /Redis client/],
  ];
  for (const [name, values, words] of cases) {
    it(`${name}: ${values.map(String).join(', ')}`, async () => {
      for (const value of values) {
        const { sent, added, redis, queue } = recorders();
        const options = { redis, [name]: value } as EnqueueOptions;
        const error = await refusal(() =>
          enqueueRefunds(queue, [{ transactionHash: 'trx_1' }], options),
        );
        const path =
          name === 'jobOptions' && value && !Array.isArray(value) && typeof value === 'object'
            ? ['jobOptions', 'jobId']
            : [name];
        expectNamed(error, path, words);
        expect({ sent, added }).toEqual({ sent: [], added: [] });
      }
    });
  }

  it('attempts or backoffMs said again in jobOptions is refused: neither silently wins', async () => {
    for (const [options, path] of [
      [{ attempts: 3, jobOptions: { attempts: 7 } }, ['jobOptions', 'attempts']],
      [
        { backoffMs: 10, jobOptions: { backoff: { type: 'fixed', delay: 5 } } },
        ['jobOptions', 'backoff'],
      ],
    ] as const) {
      const { sent, added, redis, queue } = recorders();
      const error = await refusal(() =>
        enqueueRefunds(queue, [{ transactionHash: 'trx_1' }], {
          redis,
          ...options,
        } as EnqueueOptions),
      );
      expectNamed(error, [...path], /give one of them/);
      expect({ sent, added }).toEqual({ sent: [], added: [] });
    }
    // Either alone is taken: BullMQ's own option when the helper's is not given.
    const { added, queue } = recorders();
    await enqueueRefunds(queue, [{ transactionHash: 'trx_1' }], { jobOptions: { attempts: 7 } });
    expect(added).toMatchObject([{ opts: { attempts: 7 } }]);
  });

  it('batchId: empty, huge, a brace, a slash, a space or a control character is refused, and never quoted', async () => {
    const bad = ['', 'x'.repeat(10_000), 'cohort}7', '{cohort', 'a/b', 'a b', 'a\nb', 42];
    for (const batchId of bad) {
      const { sent, added, redis, queue } = recorders();
      const options = { redis, batchId } as EnqueueOptions;
      const error = await refusal(() =>
        enqueueRefunds(queue, [{ transactionHash: 'trx_1' }], options),
      );
      expectNamed(error, ['batchId'], /1 to 128 letters, digits/);
      if (typeof batchId === 'string' && batchId !== '') {
        expect((error as Error).message).not.toContain(batchId);
      }
      expect((error as Error).message.length).toBeLessThan(300);
      expect({ sent, added }).toEqual({ sent: [], added: [] });
    }
  });

  it('a batch id of letters, digits and ._:- up to 128 characters is taken', async () => {
    const { sent, added, redis, queue } = recorders();
    const batchId = `Cohort_7.retry:2-${'x'.repeat(111)}`;
    const batch = await enqueueRefunds(queue, [{ transactionHash: 'trx_1' }], { redis, batchId });
    expect(batch.batchId).toBe(batchId);
    expect(added).toHaveLength(1);
    expect(sent.length).toBeGreaterThan(0);
  });

  it('the options and the items must be an object and an array; the queue must have addBulk', async () => {
    const { added, queue } = recorders();
    const items = [{ transactionHash: 'trx_1' }];
    expectNamed(
      await refusal(() => enqueueRefunds(queue, items, null as never)),
      [],
      /options object/,
    );
    expectNamed(await refusal(() => enqueueRefunds(queue, 'trx_1' as never)), ['items'], /array/);
    const noAdd = { name: 'refunds' } as never;
    expectNamed(await refusal(() => enqueueRefunds(noAdd, items)), ['queue'], /addBulk/);
    expect(added).toEqual([]);
  });

  it('every enqueue helper checks them', async () => {
    const { queue, added } = recorders();
    const waits = () => enqueueRefundWaits(queue, [{ transactionHash: 'trx_1' }], { attempts: -1 });
    expectNamed(await refusal(waits), ['attempts'], /whole number/);
    const offer = { productHash: 'prd_1', offerCode: 'off_1', params: { price: 4_990 } };
    const offers = () => enqueueOfferUpdates(queue, [offer], { backoffMs: Number.NaN });
    expectNamed(await refusal(offers), ['backoffMs'], /whole number/);
    expect(added).toEqual([]);
  });
});

describe("partner-sdk/bullmq: the queue's name, on a real redis-server", () => {
  const server = useRedisServer();
  let redis: Redis;
  let queue: Queue;
  beforeAll(async () => {
    redis = new Redis(server.port, '127.0.0.1');
    const connection = { host: '127.0.0.1', port: server.port, maxRetriesPerRequest: null };
    queue = new Queue(`refunds-${randomUUID()}`, { connection });
    // The queue writes its own keys once connected (`getVersion` waits for that): counted before,
    // not during, the test.
    await queue.getVersion();
  });
  afterAll(async () => {
    await queue?.close();
    await redis?.quit();
  });

  // A queue that is not BullMQ's own (a wrapper that adds logging, one of an older BullMQ) may
  // carry any name; BullMQ's Queue refuses an empty one and one with ':', its key separator.
  it("a name BullMQ's Queue would refuse (empty, with ':', not a string) is refused before any Redis command", async () => {
    const [keys, jobs] = [await redis.dbsize(), await queue.count()];
    for (const name of ['', 'refunds:eu', ':', 42, undefined]) {
      const wrapper = { name, addBulk: (jobs: never[]) => queue.addBulk(jobs) } as never;
      const items = [{ transactionHash: 'trx_1' }];
      for (const enqueue of [
        () => enqueueRefunds(wrapper, items, { redis }),
        () => enqueueRefundWaits(wrapper, items, { redis, batchId: 'cohort-7' }),
      ]) {
        const error = await refusal(enqueue);
        expectNamed(error, ['queue', 'name'], /a non-empty string without ':'/);
        if (name === 'refunds:eu') expect((error as Error).message).not.toContain(name);
      }
    }
    expect(await redis.dbsize()).toBe(keys);
    expect(await queue.count()).toBe(jobs);
  });

  it("followBatch refuses a queue whose name BullMQ's Queue would refuse before any Redis command", async () => {
    const sent: unknown[][] = [];
    const recording = {
      call: (...args: [string, ...string[]]) => {
        sent.push(args);
        return redis.call(...args);
      },
    };
    for (const name of ['', 'refunds:eu', ':', 42, undefined]) {
      const wrapper = { name, toKey: (type: string) => `bull:${String(name)}:${type}` } as never;
      const error = await refusal(() => followBatch(wrapper, 'cohort-7', { redis: recording }));
      expectNamed(error, ['queue', 'name'], /a non-empty string without ':'/);
      if (name === 'refunds:eu') expect((error as Error).message).not.toContain(name);
    }
    expect(sent).toEqual([]);
  });

  it("a name BullMQ's Queue takes is taken, the batch recorded under it", async () => {
    const wrapper = { name: 'refunds.eu/{7}', addBulk: (jobs: never[]) => queue.addBulk(jobs) };
    const batch = await enqueueRefunds(wrapper, [{ transactionHash: 'trx_1' }], {
      redis,
      batchId: 'cohort-8',
    });
    expect(batch).toMatchObject({ batchId: 'cohort-8', jobs: 1 });
    expect(await queue.getJob('refund-request/trx_1')).toBeDefined();
    expect(await redis.smembers('partner-sdk:batch:{refunds.eu/{7}/cohort-8}:jobs')).toEqual([
      'refund-request/trx_1',
    ]);
  });
});

describe('partner-sdk/bullmq: a processor refuses a wrong option when it is made', () => {
  const { queue, redis } = recorders();
  const cases: [string, Partial<RefundProcessorOptions>, string[], RegExp][] = [
    ['no queue', { queue: undefined }, ['queue'], /rateLimit\) \(got undefined\)/],
    ['a queue without rateLimit', { queue: {} as never }, ['queue'], /rateLimit/],
    [
      'a negative timeout',
      { requestOptions: { timeout: -1 } },
      ['requestOptions'],
      /`timeout` must be a positive/,
    ],
    [
      'an infinite totalTimeout',
      { requestOptions: { totalTimeout: Number.POSITIVE_INFINITY } },
      ['requestOptions'],
      /`totalTimeout`/,
    ],
    [
      'a request option no call has',
      { requestOptions: { timout: 1_000 } as never },
      ['requestOptions'],
      /`timout` is not an option; did you mean `timeout`\?/,
    ],
    [
      'headers as an array',
      { requestOptions: { headers: [['x-a', 'b']] } as never },
      ['requestOptions'],
      /`headers` must be an object/,
    ],
    [
      'requestOptions not an object',
      { requestOptions: 'fast' as never },
      ['requestOptions'],
      /object/,
    ],
    ['telemetry of the wrong type', { telemetry: 'on' as never }, ['telemetry'], /false or/],
    [
      'a tracer provider without getTracer',
      { telemetry: { tracerProvider: {} as never } },
      ['telemetry', 'tracerProvider'],
      /getTracer/,
    ],
  ];
  const processors = { refundProcessor, refundWaitProcessor, offerUpdateProcessor };
  for (const [what, options, path, words] of cases) {
    it(`${what}: refused by each processor`, () => {
      for (const make of Object.values(processors)) {
        expectNamed(
          thrown(() => make(seller, { queue, ...options } as never)),
          path,
          words,
        );
      }
    });
  }

  it('a header is named, its value never quoted', () => {
    const headers = { 'X-Api-Key': 'top-secret\r\nInjected: 1' };
    const error = thrown(() => refundProcessor(seller, { queue, requestOptions: { headers } }));
    expectNamed(error, ['requestOptions'], /X-Api-Key/);
    expect((error as Error).message).not.toContain('top-secret');
  });

  it('leaseMs: zero, negative, fractional, NaN, Infinity, past a timer, under 100 ms or a string', () => {
    for (const leaseMs of [0, -1, 1_500.5, 50, 2 ** 31, ...NOT_NUMBERS]) {
      const error = thrown(() => refundProcessor(seller, { queue, redis, leaseMs } as never));
      expectNamed(error, ['leaseMs'], /whole number of milliseconds from 100 to 2147483647/);
    }
  });

  it("unlessRefunded: not a boolean (a string 'false' would read as true)", () => {
    for (const unlessRefunded of ['false', 1, null]) {
      const error = thrown(() => refundProcessor(seller, { queue, unlessRefunded } as never));
      expectNamed(error, ['unlessRefunded'], /a boolean/);
    }
  });

  it('redis: not a Redis client', () => {
    const error = thrown(() => refundProcessor(seller, { queue, redis: {} as never }));
    expectNamed(error, ['redis'], /Redis client/);
  });

  it('the documented defaults and good values are taken', () => {
    expect(refundProcessor(seller, { queue })).toBeTypeOf('function');
    const options = {
      queue,
      redis,
      leaseMs: 300,
      unlessRefunded: true,
      requestOptions: { timeout: 5_000, headers: { 'X-Trace': 'a' } },
      telemetry: false as const,
    };
    expect(refundProcessor(seller, options)).toBeTypeOf('function');
  });
});

describe('partner-sdk/bullmq: followBatch refuses a wrong option before any Redis command', () => {
  it('a recorded batch: its id, its redis, intervalMs, signal and onProgress', async () => {
    const bad: [unknown, unknown, string[], RegExp][] = [
      ['a}b', {}, ['batchId'], /1 to 128 letters/],
      ['', {}, ['batchId'], /1 to 128 letters/],
      ['cohort-7', { redis: undefined }, ['redis'], /Redis client/],
      ['cohort-7', { intervalMs: 0 }, ['intervalMs'], /positive number of milliseconds/],
      ['cohort-7', { intervalMs: Number.NaN }, ['intervalMs'], /positive number of milliseconds/],
      ['cohort-7', { signal: 'stop' }, ['signal'], /AbortSignal/],
      ['cohort-7', { onProgress: 'log' }, ['onProgress'], /function/],
    ];
    for (const [batchId, options, path, words] of bad) {
      const { sent, redis, queue } = recorders();
      const error = await refusal(() =>
        followBatch(queue, batchId as string, { redis, ...(options as object) } as never),
      );
      expectNamed(error, path, words);
      expect(sent).toEqual([]);
    }
  });

  it('the whole queue: total and intervalMs', async () => {
    const { queue } = recorders();
    for (const total of [-1, 1.5, Number.NaN, '10']) {
      expectNamed(
        await refusal(() => followBatch(queue, { total } as never)),
        ['total'],
        /whole number/,
      );
    }
    const slow = () => followBatch(queue, { intervalMs: Number.POSITIVE_INFINITY });
    expectNamed(await refusal(slow), ['intervalMs'], /positive number/);
  });
});
