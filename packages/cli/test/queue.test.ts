/**
 * `--queue` on `refunds request`, on a real redis-server with a BullMQ worker in a child process
 * refunding through the testing kit: the items are enqueued as one batch whose id is printed, and
 * `--follow` follows that batch to its end, the exit code by outcome.
 */

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { createMockPartnerApi, type MockPartnerApi, type MockServer } from 'partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, startChild } from '../../../test/helpers/children';
import { type RedisServer, startRedisServer } from '../../../test/helpers/redis-server';
import { waitFor, withTimeout } from '../../../test/helpers/waits';
import { cli, jsonLines, startCli } from './run-cli';

let redis: RedisServer;
let mock: MockPartnerApi;
let server: MockServer;
let worker: Child;
const queue = `cli-refunds-${randomUUID()}`;

beforeAll(async () => {
  redis = await startRedisServer();
  mock = createMockPartnerApi({ refundPolls: 0 });
  server = await mock.listen();
  worker = startChild('test/bullmq/fixtures/refund-worker.ts', {
    REDIS_URL: redis.url,
    QUEUE: queue,
    PARTNER_API_BASE_URL: server.url,
    PARTNER_API_CLIENT_TOKEN: mock.credentials.clientToken,
    PARTNER_API_SELLER_TOKEN: mock.sellers.person.publicToken,
    RUNNER: 'worker',
  });
  await worker.next(90_000);
}, 120_000);
afterAll(async () => {
  await worker?.close();
  await server?.close();
  await redis?.close();
});

const env = () => ({
  PARTNER_API_BASE_URL: server.url,
  PARTNER_API_CLIENT_ID: mock.credentials.clientId,
  PARTNER_API_CLIENT_SECRET: mock.credentials.clientSecret,
  PARTNER_API_CLIENT_TOKEN: undefined,
  PARTNER_API_SELLER_TOKEN: mock.sellers.person.publicToken,
  REDIS_URL: undefined,
});

const refunds = (hash: string) =>
  mock.requests.filter((r) => r.method === 'POST' && r.path === `/financial/refund/${hash}`);

describe('partner-sdk refunds request --queue', { timeout: 120_000 }, () => {
  it('--follow enqueues one batch, follows it to its end, and exits 1 when a job failed', async () => {
    const hashes = [1, 2, 3].map(() => mock.addTransaction());
    const args = ['refunds', 'request', ...hashes, 'trx_missing', '--reason', 'Cohort cancelled'];
    const flags = ['--queue', queue, '--redis', redis.url, '--follow', '--json'];
    const run = await cli([...args, ...flags], { env: env() });
    expect(run.stderr).not.toMatch(/Error/);
    const [batch, summary] = jsonLines(run.stdout);
    expect(batch).toMatchObject({ batch: { enqueued: 4, jobs: 4, queue } });
    const batchId = (batch as { batch: { batchId: string } }).batch.batchId;
    expect(summary).toEqual({
      summary: { batch: batchId, completed: 3, failed: 1, failedBy: { NotFoundError: 1 } },
    });
    expect(run.code).toBe(1);
    // Sent by the worker, once each, not by the CLI.
    for (const hash of hashes) {
      expect(refunds(hash).map((r) => r.headers['x-runner'])).toEqual(['worker']);
    }
  });

  it('without --follow prints the batch and exits 0 (JSON when piped); REDIS_URL stands for --redis', async () => {
    const hash = mock.addTransaction();
    const run = await cli(['refunds', 'request', hash, '--queue', queue], {
      env: { ...env(), REDIS_URL: redis.url },
    });
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout)).toEqual([
      { batch: { batchId: expect.stringMatching(/^[0-9a-f-]{36}$/), enqueued: 1, jobs: 1, queue } },
    ]);
    // On a table format: the batch id on stdout, and a line for people on stderr.
    const table = await cli(
      ['--format', 'table', 'refunds', 'request', mock.addTransaction(), '--queue', queue],
      { env: { ...env(), REDIS_URL: redis.url } },
    );
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(table.stderr).toContain(`enqueued 1 job on queue ${queue} (batch `);
  });

  it('offers update --file and refunds wait enqueue their jobs the same way', async () => {
    const other = `cli-other-${randomUUID()}`;
    const dir = await mkdtemp(join(tmpdir(), 'partner-cli-queue-'));
    const jobs = new Queue(other, {
      connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null },
    });
    try {
      const file = join(dir, 'prices.jsonl');
      await writeFile(
        file,
        '{"productHash":"prd_1","offerCode":"OFF-1","params":{"price":4990}}\n',
      );
      const flags = ['--queue', other, '--redis', redis.url];
      const offers = await cli(['offers', 'update', '--file', file, ...flags], { env: env() });
      expect(offers.stderr).toBe('');
      expect(offers.code).toBe(0);
      expect(jsonLines(offers.stdout)).toMatchObject([{ batch: { enqueued: 1, jobs: 1 } }]);
      const hash = mock.addTransaction();
      const waits = await cli(['refunds', 'wait', hash, ...flags], { env: env() });
      expect(waits.code).toBe(0);
      const offer = await jobs.getJob('offer-update/prd_1/OFF-1');
      expect(offer?.data).toEqual({
        productHash: 'prd_1',
        offerCode: 'OFF-1',
        params: { price: 4990 },
      });
      expect((await jobs.getJob(`refund-wait/${hash}`))?.data).toEqual({ transactionHash: hash });
    } finally {
      await jobs.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a transaction enqueued again once its job was removed is refused by the worker, nothing sent, unless --again', async () => {
    const jobs = new Queue(queue, {
      connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null },
    });
    try {
      const hash = mock.addTransaction();
      const flags = ['--queue', queue, '--redis', redis.url, '--follow', '--json'];
      const first = await cli(['refunds', 'request', hash, ...flags], { env: env() });
      expect(first.code, first.stderr).toBe(0);
      // The guard travels with the job: any worker refuses a transaction already refunded.
      const job = `refund-request/${hash}`;
      expect((await jobs.getJob(job))?.data).toEqual({
        transactionHash: hash,
        params: {},
        unlessRefunded: true,
      });
      expect((await cli(['refunds', 'wait', hash], { env: env() })).code).toBe(0);
      // Removed, as removeOnComplete or a queue cleaned overnight would: the id protects no more.
      await jobs.remove(job);
      const second = await cli(['refunds', 'request', hash, ...flags], { env: env() });
      // Refused alone, as the in-process run tells it apart: nothing went wrong, nothing was sent.
      expect(second.code).toBe(5);
      expect(jsonLines(second.stdout)[1]).toMatchObject({
        summary: { completed: 0, failed: 1, failedBy: { AlreadyRefundedError: 1 } },
      });
      expect((await jobs.getJob(job))?.failedReason).toMatch(
        /^AlreadyRefundedError: .*already has a completed refund/,
      );
      expect(refunds(hash)).toHaveLength(1);

      await jobs.remove(job);
      const again = await cli(['refunds', 'request', hash, '--again', ...flags], { env: env() });
      expect(again.code, again.stderr).toBe(0);
      expect((await jobs.getJob(job))?.data).toMatchObject({ unlessRefunded: false });
      expect(refunds(hash)).toHaveLength(2);
    } finally {
      await jobs.close();
    }
  });

  it('--follow exits 1 when a transaction already refunded fails beside another failure', async () => {
    const jobs = new Queue(queue, {
      connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null },
    });
    try {
      const hash = mock.addTransaction();
      const flags = ['--queue', queue, '--redis', redis.url, '--follow', '--json'];
      expect((await cli(['refunds', 'request', hash, ...flags], { env: env() })).code).toBe(0);
      expect((await cli(['refunds', 'wait', hash], { env: env() })).code).toBe(0);
      await jobs.remove(`refund-request/${hash}`);
      const mixed = await cli(['refunds', 'request', hash, 'trx_missingToo', ...flags], {
        env: env(),
      });
      expect(mixed.code).toBe(1);
      expect(jsonLines(mixed.stdout)[1]).toMatchObject({
        summary: { failed: 2, failedBy: { AlreadyRefundedError: 1, NotFoundError: 1 } },
      });
    } finally {
      await jobs.close();
    }
  });

  it('--follow stopped by Ctrl-C or SIGTERM prints the summary so far with the jobs left, exits 130, and leaves the jobs queued', async () => {
    // A queue no worker takes jobs from: the batch stays waiting while it is followed.
    const idle = `cli-idle-${randomUUID()}`;
    const jobs = new Queue(idle, {
      connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null },
    });
    try {
      const hashes = [mock.addTransaction(), mock.addTransaction()];
      const flags = ['--queue', idle, '--redis', redis.url, '--follow'];
      const json = startCli(['--json', 'refunds', 'request', ...hashes, ...flags], { env: env() });
      await json.printed((out) => out.includes('"batch"'));
      json.stop('SIGINT');
      const stopped = await withTimeout(json.exited, 15_000, 'the stopped follower');
      expect({ code: stopped.code, stderr: stopped.stderr }).toEqual({ code: 130, stderr: '' });
      const [batch, summary] = jsonLines(stopped.stdout);
      const batchId = (batch as { batch: { batchId: string } }).batch.batchId;
      expect(summary).toEqual({
        summary: { batch: batchId, completed: 0, failed: 0, failedBy: {}, left: 2 },
      });

      const table = startCli(
        ['--format', 'table', 'refunds', 'request', mock.addTransaction(), ...flags],
        { env: env() },
      );
      const [id] = (await table.printed((out) => out.endsWith('\n'))).split('\n');
      table.stop('SIGTERM');
      const ended = await withTimeout(table.exited, 15_000, 'the stopped follower');
      expect(ended.code).toBe(130);
      expect(ended.stderr).toContain(
        `stopped following batch ${id}: 0 completed, 0 failed, 1 job left to the workers`,
      );
      // Stopping the follower stopped no job: the workers will find all three.
      expect(await jobs.getWaitingCount()).toBe(3);
    } finally {
      await jobs.close();
    }
  });

  it('refuses --queue without a Redis to reach, or with a flag of an in-process run, before anything is enqueued', async () => {
    const hash = mock.addTransaction();
    const run = await cli(['refunds', 'request', hash, '--queue', queue], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--redis <url> or REDIS_URL/);
    const journal = await cli(['refunds', 'request', hash, '--queue', queue, '--journal', 'x'], {
      env: { ...env(), REDIS_URL: redis.url },
    });
    expect(journal.code).toBe(2);
    expect(journal.stderr).toMatch(/--journal does not apply/);
    // The workers send at their own concurrency: a --concurrency here would change nothing.
    for (const command of [
      ['refunds', 'request', hash],
      ['refunds', 'wait', hash],
      ['offers', 'update', '--file', '-'],
    ]) {
      const concurrency = await cli([...command, '--queue', queue, '--concurrency', '8'], {
        env: { ...env(), REDIS_URL: redis.url },
      });
      expect(concurrency.code).toBe(2);
      expect(concurrency.stderr).toMatch(/--concurrency does not apply/);
    }
    // The workers' waits are bounded by their own client: a --timeout here would bound nothing.
    const timeout = await cli(['refunds', 'wait', hash, '--queue', queue, '--timeout', '1800'], {
      env: { ...env(), REDIS_URL: redis.url },
    });
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toMatch(/--timeout does not apply/);
    const jobs = new Queue(queue, { connection: { host: '127.0.0.1', port: redis.port } });
    try {
      expect(await jobs.getJob(`refund-wait/${hash}`)).toBeUndefined();
    } finally {
      await jobs.close();
    }
    expect(refunds(hash)).toEqual([]);
  });

  it('refuses a Redis URL that does not parse without showing its password', async () => {
    const hash = mock.addTransaction();
    const password = 'redis-password-never-shown';
    for (const url of [
      `redis://:${password}@[::1`,
      `redis://user:${password}@host:port`,
      // A URL of another scheme, or a database that is not a number, is no Redis to reach either.
      `http://user:${password}@127.0.0.1:${redis.port}`,
      `redis://user:${password}@127.0.0.1:${redis.port}/cohort`,
    ]) {
      const flag = await cli(['refunds', 'request', hash, '--queue', queue, '--redis', url], {
        env: env(),
      });
      const variable = await cli(['refunds', 'request', hash, '--queue', queue], {
        env: { ...env(), REDIS_URL: url },
      });
      for (const run of [flag, variable]) {
        expect(run.code).toBe(2);
        expect(run.stderr).toMatch(/must be a redis:\/\/ or rediss:\/\/ URL/);
        expect(run.stderr).not.toContain(password);
      }
    }
    expect(refunds(hash)).toEqual([]);
  });

  it('reaches a rediss:// Redis over TLS, the queue as well as the batch record', async () => {
    // A listener that records how each connection opens: a TLS handshake starts with byte 0x16,
    // a Redis command in clear with `*`.
    const opened: number[] = [];
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.once('data', (data) => opened.push(data[0]!));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const url = `rediss://127.0.0.1:${port}`;
    const run = startCli(
      ['refunds', 'request', mock.addTransaction(), '--queue', queue, '--redis', url],
      {
        env: env(),
      },
    );
    try {
      await waitFor(() => opened.length >= 2, 'the batch record and the queue to connect', 30_000);
      expect(opened.map((byte) => byte.toString(16))).toEqual(opened.map(() => '16'));
    } finally {
      run.stop('SIGKILL');
      await run.exited;
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('--seller-ref marks every job for that seller, and is refused without --queue', async () => {
    const name = `cli-sellers-${randomUUID()}`;
    const hashes = [1, 2].map(() => mock.addTransaction());
    const run = await cli(
      ['refunds', 'request', ...hashes, '--queue', name, '--seller-ref', 'acct-42', '--json'],
      { env: { ...env(), REDIS_URL: redis.url } },
    );
    expect(run.code).toBe(0);
    const jobs = new Queue(name, { connection: { host: '127.0.0.1', port: redis.port } });
    try {
      const data = (await jobs.getJobs(['waiting'])).map((job) => job.data);
      expect(data.map((d) => d.seller)).toEqual(['acct-42', 'acct-42']);
      expect(new Set(data.map((d) => d.transactionHash))).toEqual(new Set(hashes));
    } finally {
      await jobs.obliterate({ force: true });
      await jobs.close();
    }
    const alone = await cli(['refunds', 'request', hashes[0]!, '--seller-ref', 'acct-42'], {
      env: env(),
    });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--seller-ref applies only with --queue NAME: nothing sent/);
    const tooLong = await cli(
      ['refunds', 'request', hashes[0]!, '--queue', name, '--seller-ref', 'x'.repeat(257)],
      { env: { ...env(), REDIS_URL: redis.url } },
    );
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toMatch(/seller/);
    expect(refunds(hashes[0]!)).toEqual([]);
  });

  it("--seller-ref with a worker of a function of the seller: each job runs as that seller's client, a reference the worker does not know fails for good", async () => {
    const name = `cli-marketplace-${randomUUID()}`;
    const third = mock.addSeller({ type: 'company' });
    const sellers = startChild('test/bullmq/fixtures/refund-worker.ts', {
      REDIS_URL: redis.url,
      QUEUE: name,
      PARTNER_API_BASE_URL: server.url,
      PARTNER_API_CLIENT_TOKEN: mock.credentials.clientToken,
      SELLER_TOKENS: JSON.stringify({
        'acct-company': mock.sellers.company.publicToken,
        'acct-third': third.publicToken,
      }),
      RUNNER: 'sellers',
    });
    try {
      await sellers.next(90_000);
      // The marketplace's operator enqueues for a seller without that seller's token at hand.
      const operator = { ...env(), PARTNER_API_SELLER_TOKEN: undefined };
      const follow = ['--queue', name, '--redis', redis.url, '--follow', '--json'];
      for (const [ref, code] of [
        ['acct-company', mock.sellers.company.code],
        ['acct-third', third.code],
      ] as const) {
        const hashes = [1, 2].map(() => mock.addTransaction(4_990, { seller: code }));
        const run = await cli(['refunds', 'request', ...hashes, ...follow, '--seller-ref', ref], {
          env: operator,
        });
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(jsonLines(run.stdout)[1]).toMatchObject({ summary: { completed: 2, failed: 0 } });
        const token = ref === 'acct-company' ? mock.sellers.company.publicToken : third.publicToken;
        for (const hash of hashes) {
          expect(
            refunds(hash).map((r) => [r.headers['x-runner'], r.headers.authorization]),
          ).toEqual([['sellers', `Bearer ${token}`]]);
        }
      }
      const stranger = mock.addTransaction(4_990, { seller: third.code });
      const unknown = await cli(
        ['refunds', 'request', stranger, ...follow, '--seller-ref', 'acct-nobody'],
        {
          env: operator,
        },
      );
      expect(unknown.code).toBe(1);
      expect(jsonLines(unknown.stdout)[1]).toMatchObject({
        summary: { completed: 0, failed: 1, failedBy: { RequestValidationError: 1 } },
      });
      expect(unknown.stdout).not.toContain('acct-nobody');
      expect(refunds(stranger)).toEqual([]);
    } finally {
      await sellers.close();
      const jobs = new Queue(name, { connection: { host: '127.0.0.1', port: redis.port } });
      await jobs.obliterate({ force: true });
      await jobs.close();
    }
  });
});
