/**
 * The Redis stores' `commandTimeoutMs` is about Redis: an answer that arrived in time is taken,
 * even when this process was too busy to read it before the limit passed (a loaded machine, a
 * long garbage collection). Node runs due timers before it reads sockets, so the limit's timer
 * used to win over an answer already waiting to be read.
 */

import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisDedupeStore } from '../../src/redis/index';
import { type RedisServer, startRedisServer } from '../helpers/redis-server';

let server: RedisServer;
let redis: Redis;
beforeAll(async () => {
  server = await startRedisServer();
  redis = new Redis(server.port, '127.0.0.1');
  await redis.ping();
}, 20_000);
afterAll(async () => {
  await redis?.quit();
  await server?.close();
});

/** Keeps this process busy (no timer, no socket read) for `ms`. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // Spinning on purpose: what a loaded machine or a long collection does to the event loop.
  }
}

describe('a Redis command answered while the process was busy past commandTimeoutMs', () => {
  it('resolves with the answer instead of rejecting as if Redis were silent', async () => {
    // Every command is sent, then the process is busy for ten times the limit: Redis answers
    // meanwhile, and its answer waits in the socket when the process next looks.
    const busyAfterSending = {
      call(command: string, ...args: string[]) {
        const answer = redis.call(command, ...args);
        busyFor(1_000);
        return answer;
      },
    };
    const store = new RedisDedupeStore(busyAfterSending, {
      prefix: `busy-${randomUUID()}:`,
      commandTimeoutMs: 100,
    });
    const key = `key-${randomUUID()}`;
    expect(await store.claim(key, { leaseMs: 60_000, owner: randomUUID() })).toBe('claimed');
  });
});
