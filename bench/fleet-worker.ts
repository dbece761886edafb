/**
 * One process of the bench's fleet row (`bench/fleet.ts`), forked with IPC. Its `MODE`:
 * - `local`: `requestRefunds` from `partner-sdk/bulk` over its share of the hashes, paced on its own;
 * - `fleet`: its share of refund requests, 16 at a time, through a client paced by `fleetPace`;
 * - `bullmq`: a BullMQ `Worker` running `refundProcessor` (concurrency 16) on queue `QUEUE`, its
 *   client paced by `fleetPace`, until told to stop.
 * It says `{ ready: true }`, waits for `{ go, hashes }`, then answers `{ failed, redisCommands }`
 * (in bullmq mode when told `{ stop: true }`). Environment: BASE_URL, CLIENT_TOKEN, SELLER_TOKEN,
 * REDIS_URL, RATE, QUEUE.
 */

import { Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { PartnerClient } from 'partner-sdk';
import { requestRefunds } from 'partner-sdk/bulk';
import { refundProcessor } from 'partner-sdk/bullmq';
import { fleetPace } from 'partner-sdk/redis';

const env = (name: string) => process.env[name] ?? '';
const mode = env('MODE');
const redisUrl = new URL(env('REDIS_URL'));
const connection = {
  host: redisUrl.hostname,
  port: Number(redisUrl.port),
  maxRetriesPerRequest: null,
};
const redis = new Redis(connection);
let redisCommands = 0;
/** The pace's Redis connection, counting what it sends: the round trips per call. */
const counted = {
  call: (command: string, ...args: string[]) => {
    redisCommands++;
    return redis.call(command, ...args);
  },
};
const client = new PartnerClient({
  baseUrl: env('BASE_URL'),
  clientToken: env('CLIENT_TOKEN'),
  logLevel: 'off',
  maxRetries: 5,
  pace:
    mode === 'local'
      ? undefined
      : fleetPace(counted, { requestsPerSecond: Number(env('RATE')), prefix: 'bench:' }),
});
const seller = client.forUser(env('SELLER_TOKEN'));

async function refundAll(hashes: string[]): Promise<number> {
  if (mode === 'local') return (await requestRefunds(seller, hashes, { concurrency: 4 })).failed;
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < hashes.length) {
      const hash = hashes[next++]!;
      await seller.refunds.request(hash).catch(() => failed++);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return failed;
}

async function runWorker(): Promise<void> {
  const queue = new Queue(env('QUEUE'), { connection });
  const worker = new Worker(env('QUEUE'), refundProcessor(seller, { queue, redis }), {
    connection,
    concurrency: 16,
  });
  await worker.waitUntilReady();
  process.send?.({ ready: true });
  await new Promise((resolve) => process.once('message', resolve));
  await worker.close();
  await queue.close();
  process.send?.({ failed: 0, redisCommands });
}

if (mode === 'bullmq') {
  await runWorker();
} else {
  process.send?.({ ready: true });
  const { hashes } = await new Promise<{ hashes: string[] }>((resolve) =>
    process.once('message', (m) => resolve(m as { hashes: string[] })),
  );
  const failed = await refundAll(hashes);
  process.send?.({ failed, redisCommands });
}
redis.disconnect();
process.disconnect?.();
