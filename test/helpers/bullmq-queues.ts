/**
 * BullMQ on a test file's own `redis-server`: the server started before the file's tests and
 * closed after them, and the queues, workers and Redis connections a test opens closed after that
 * test, the last opened first (a worker before the queue it takes jobs from), whatever a close
 * throws once its test is over.
 */

import { randomUUID } from 'node:crypto';
import { type Processor, Queue, type QueueOptions, Worker, type WorkerOptions } from 'bullmq';
import Redis from 'ioredis';
import { afterEach } from 'vitest';
import { useRedisServer } from './redis-server';

export function useBullmq() {
  const server = useRedisServer();
  const undos: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const undo of undos.splice(0).reverse()) await undo().catch(() => {});
  });
  /** BullMQ's connection options for the server; workers need `maxRetriesPerRequest: null`. */
  const connection = () => ({ host: '127.0.0.1', port: server.port, maxRetriesPerRequest: null });
  return {
    server,
    connection,
    /** Runs `undo` after the test, with the queues and workers. */
    onCleanup(undo: () => Promise<unknown>): void {
      undos.push(undo);
    },
    /** A queue of a fresh name (or `name`), closed after the test. */
    queue(name = `refunds-${randomUUID()}`, options: Partial<QueueOptions> = {}): Queue {
      const queue = new Queue(name, { connection: connection(), ...options });
      undos.push(() => queue.close());
      return queue;
    },
    /**
     * A worker of queue `name`, closed after the test without waiting for its jobs. Its `error`
     * events (a connection closing under it once the test is done) are not the test's.
     */
    worker<T, R>(name: string, processor: Processor<T, R>, options: Partial<WorkerOptions> = {}) {
      const worker = new Worker<T, R>(name, processor, { connection: connection(), ...options });
      worker.on('error', () => {});
      undos.push(() => worker.close(true));
      return worker;
    },
    /** An ioredis connection to the server, closed after the test. */
    redis(): Redis {
      const redis = new Redis(server.port, '127.0.0.1');
      undos.push(() => redis.quit());
      return redis;
    },
  };
}
