/**
 * `partner-sdk/bullmq` on a real redis-server with real processes: one producer and four workers
 * refund 2,000 transactions against the rate-limited kit; two workers are SIGKILLed mid-run while
 * the kit holds answers to refunds they made; every transaction ends with exactly one refund.
 * The producer enqueues every transaction twice (one job each), and a few answers are lost on the
 * wire (BullMQ retries those jobs, which reconcile instead of refunding again).
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { followBatch, type QueueJobResult } from 'partner-sdk/bullmq';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { expect, it } from 'vitest';
import { useBullmq } from '../helpers/bullmq-queues';
import { type Child, startChild } from '../helpers/children';
import { kitClients } from '../helpers/kit-clients';
import { waitFor } from '../helpers/waits';
import { serveKit } from './kit-server';

const bullmq = useBullmq();

const COUNT = 2_000;

it('4 workers, 2 of them SIGKILLed mid-run: every transaction refunded exactly once, none missing', async () => {
  const mock = createMockPartnerApi({ refundPolls: 0 });
  mock.setRateLimit({ requestsPerSecond: 150, burst: 20 });
  const hashes = Array.from({ length: COUNT }, () => mock.addTransaction());
  const lose = new Set(hashes.slice(100, 103));
  const { url, server, held } = await serveKit(mock, lose);
  const dir = await mkdtemp(join(tmpdir(), 'partner-bullmq-'));
  const queue = bullmq.queue();
  bullmq.onCleanup(async () => {
    server.closeAllConnections();
    server.close();
    await rm(dir, { recursive: true, force: true });
  });
  await writeFile(join(dir, 'hashes.txt'), `${hashes.join('\n')}\n`);
  const env = {
    REDIS_URL: bullmq.server.url,
    QUEUE: queue.name,
    PARTNER_API_BASE_URL: url,
    PARTNER_API_CLIENT_TOKEN: mock.credentials.clientToken,
    PARTNER_API_SELLER_TOKEN: mock.sellers.person.publicToken,
    HASHES_FILE: join(dir, 'hashes.txt'),
  };
  const workers = [0, 1, 2, 3].map((i) =>
    startChild('test/bullmq/fixtures/refund-worker.ts', { ...env, RUNNER: `w${i}` }),
  );
  bullmq.onCleanup(() => Promise.all(workers.map((worker: Child) => worker.close())));
  // Loading BullMQ in four fresh processes at once takes a while on a busy machine.
  await Promise.all(workers.map((worker) => worker.next(90_000)));

  // Every transaction enqueued twice: one job each.
  const producer = startChild('test/bullmq/fixtures/producer.ts', { ...env, TWICE: '1' });
  expect(await producer.next(90_000)).toEqual({ enqueued: 2 * COUNT, jobs: COUNT });

  // Two workers killed a quarter of the way through, while the kit holds answers to their refunds.
  const killed = ['w0', 'w1'];
  const quarterDoneWhileHeld = async () =>
    ((await queue.getJobCounts('completed')).completed ?? 0) >= COUNT / 4 && held() > 0;
  await waitFor(quarterDoneWhileHeld, 'a quarter done while the kit holds answers', 120_000);
  await Promise.all([workers[0]!.close(), workers[1]!.close()]);

  // The two others finish the batch, the killed workers' jobs included (stalled, taken over).
  const last = await followBatch(queue, { total: COUNT, intervalMs: 250 });
  expect(last).toMatchObject({ done: COUNT, completed: COUNT, failed: 0, waiting: 0, active: 0 });

  mock.setRateLimit(undefined);
  const { seller } = kitClients(mock);
  const refunds = await Promise.all(hashes.map((hash) => seller.refunds.list(hash)));
  const wrong = hashes.filter((_, i) => refunds[i]!.length !== 1);
  const detail = wrong.map((hash) => ({
    hash,
    refunds: refunds[hashes.indexOf(hash)]!.length,
    requests: mock.requests
      .filter((r) => r.path === `/financial/refund/${hash}`)
      .map((r) => `${r.method} ${r.headers['x-runner']}`),
  }));
  // Exactly one refund per transaction, none missing (the requests are shown when not).
  expect(detail).toEqual([]);

  const results = (await queue.getJobs(['completed'], 0, -1)).map(
    (job) => job.returnvalue as QueueJobResult,
  );
  const reconciled = results.filter((result) => result.reconciled).map((result) => result.key);
  // The lost answers, and refunds the killed workers made without reading the answer.
  for (const hash of lose) expect(reconciled).toContain(hash);
  const byKilled = new Set(
    mock.requests
      .filter((r) => r.method === 'POST' && killed.includes(r.headers['x-runner'] ?? ''))
      .map((r) => r.path.split('/').pop()),
  );
  expect(reconciled.filter((hash) => byKilled.has(hash)).length).toBeGreaterThanOrEqual(1);
}, 240_000);
