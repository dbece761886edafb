/**
 * A Redis journal's lease taken over from a runner that was only paused (longer than its lease:
 * a stopped container, a long GC), against a real redis-server with each client library. Every
 * step of the lease (claim, renewal, put, release) is one script, so a runner killed at any point
 * leaves at most a lease that runs out (`bulk-resume.test.ts` kills one mid-job); the window is
 * the paused runner that wakes after another took the job over: it must write nothing more, even
 * once that other runner is done and the lease is free again. A runner that was only slow, and
 * whose lease nobody took meanwhile, takes it back and goes on.
 */

import { randomUUID } from 'node:crypto';
import { JournalLockedError } from 'partner-sdk/bulk';
import { RedisJournalStore } from 'partner-sdk/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, libraries, sendCommand } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';
import { sleep } from '../helpers/waits';

const redis = useRedisServer();

const at = () => new Date().toISOString();

describe.each(libraries)(
  'a Redis journal lease taken over from a paused runner, over $name',
  (library) => {
    let shared: Connection;
    beforeAll(async () => {
      shared = await library.connect(redis.url);
    });
    afterAll(() => shared?.close());

    /** `paused` claimed the job; its lease ran out while it was stopped, and `next` claimed it. */
    async function takenOver(leaseMs: number) {
      const prefix = `lease-${randomUUID()}:`;
      const paused = new RedisJournalStore(shared.client, { prefix, leaseMs });
      const next = new RedisJournalStore(shared.client, { prefix, leaseMs: 60_000 });
      await paused.claim('cohort-1');
      await paused.put({ job: 'cohort-1', key: 'trx_1', state: 'intent', at: at() });
      // Paused past its lease: the lease ran out (at once here), and the next runner took the job.
      await sendCommand(shared, ['DEL', `${prefix}journal-lease:{cohort-1}`]);
      await next.claim('cohort-1');
      return { paused, next };
    }

    it('woken before its renewal: refused while the other holds the job, and still once it released it', async () => {
      const { paused, next } = await takenOver(60_000);
      const write = () => paused.put({ job: 'cohort-1', key: 'trx_2', state: 'intent', at: at() });
      await expect(write()).rejects.toThrow(JournalLockedError);
      await next.put({ job: 'cohort-1', key: 'trx_2', state: 'succeeded', at: at() });
      await next.close();
      await expect(write()).rejects.toThrow(
        /was taken over by process \d+ on .* while this runner was paused past its lease/,
      );
      // What the next runner recorded stands.
      expect(await paused.get('cohort-1', 'trx_2')).toMatchObject({ state: 'succeeded' });
      await paused.close();
    });

    it('woken by its renewal (which finds the job taken): refused, and still once the other released it', async () => {
      const { paused, next } = await takenOver(300);
      // Its renewal (every 100 ms) runs and finds another runner holding the job.
      await sleep(250);
      await next.close();
      await expect(
        paused.put({ job: 'cohort-1', key: 'trx_2', state: 'intent', at: at() }),
      ).rejects.toThrow(JournalLockedError);
      await paused.close();
    });

    it('only slow, its lease taken by nobody meanwhile: it takes the lease back and goes on', async () => {
      const prefix = `lease-${randomUUID()}:`;
      const slow = new RedisJournalStore(shared.client, { prefix, leaseMs: 60_000 });
      await slow.claim('cohort-1');
      await sendCommand(shared, ['DEL', `${prefix}journal-lease:{cohort-1}`]);
      await slow.put({ job: 'cohort-1', key: 'trx_1', state: 'intent', at: at() });
      const other = new RedisJournalStore(shared.client, { prefix, leaseMs: 60_000 });
      await expect(other.claim('cohort-1')).rejects.toThrow(JournalLockedError);
      await slow.close();
      await other.claim('cohort-1');
      await other.close();
    });
  },
);
