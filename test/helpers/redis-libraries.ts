/**
 * The two Redis client libraries the stores accept, behind one small face, so that every test
 * runs once with each (`describe.each(libraries)`). Both reconnect quickly, so that a test
 * restarting Redis does not wait on their default back-off. Each library is imported when first
 * connected: a child process uses one, and `redis` alone takes a fifth of a second of CPU to load.
 */

import type { RedisClient } from '../../src/redis/index';

export interface Connection {
  readonly client: RedisClient;
  close(): Promise<void>;
}

export interface Library {
  readonly name: 'redis' | 'ioredis';
  connect(url: string): Promise<Connection>;
}

/** Sends a raw Redis command (`['GET', key]`) through either library's own way of doing so. */
export function sendCommand(connection: Connection, args: string[]): Promise<unknown> {
  const { client } = connection;
  return 'call' in client ? client.call(args[0]!, ...args.slice(1)) : client.sendCommand(args);
}

const backOff = (attempt: number) => Math.min(50 * (attempt + 1), 500);

export const nodeRedis: Library = {
  name: 'redis',
  async connect(url) {
    const { createClient } = await import('redis');
    const client = createClient({
      url,
      socket: { reconnectStrategy: backOff, connectTimeout: 2_000 },
    });
    // Connection errors while Redis is stopped surface through the stores; keep them off stderr.
    client.on('error', () => undefined);
    await client.connect();
    return {
      client,
      async close() {
        client.destroy();
      },
    };
  },
};

export const ioredis: Library = {
  name: 'ioredis',
  async connect(url) {
    const { default: Redis } = await import('ioredis');
    const client = new Redis(url, {
      lazyConnect: true,
      retryStrategy: backOff,
      connectTimeout: 2_000,
    });
    client.on('error', () => undefined);
    await client.connect();
    return {
      client,
      async close() {
        client.disconnect();
      },
    };
  },
};

export const libraries: readonly Library[] = [nodeRedis, ioredis];

/** The library of a name (child processes get it from their environment). */
export function library(name: string | undefined): Library {
  const found = libraries.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`unknown Redis library ${String(name)}`);
  return found;
}
