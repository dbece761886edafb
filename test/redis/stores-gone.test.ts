/**
 * The Redis stores leave no rejection unhandled when their server goes away: each store's use
 * fails or falls back as documented, in a child process run with `--unhandled-rejections=strict`.
 */

import { describe, expect, it } from 'vitest';
import { startChild } from '../helpers/children';
import { libraries } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';

const redis = useRedisServer();

describe.each(libraries)('the Redis stores over $name', (library) => {
  it('leave no rejection unhandled once Redis went away', async () => {
    await redis.start().catch(() => undefined);
    const child = startChild('test/redis/fixtures/stores-gone.ts', {
      REDIS_URL: redis.url,
      REDIS_LIBRARY: library.name,
      NODE_OPTIONS: '--unhandled-rejections=strict',
    });
    try {
      const ready = await child.next<{ up: Record<string, string> }>(60_000);
      expect(ready.up).toEqual({
        call: 'resolved true',
        delivery: 'resolved 200',
        bulk: 'resolved succeeded 2',
      });
      await redis.stop();
      const gone = await child.ask<{ outcomes: Record<string, string>; unhandled: string[] }>(
        { op: 'gone' },
        30_000,
      );
      expect(gone.unhandled).toEqual([]);
      // As documented: a login falls back to this process, a delivery is answered 5xx (the sender
      // retries), a bulk job stops, resumable, with the store's error.
      expect(gone.outcomes).toEqual({
        call: 'resolved true',
        delivery: 'resolved 500',
        bulk: 'RedisStoreError',
      });
    } finally {
      await child.close();
    }
  }, 90_000);
});
