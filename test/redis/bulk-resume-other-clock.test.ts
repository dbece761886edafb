/**
 * A bulk refund job resumed from the Redis journal on a machine whose clock runs behind the one
 * that sent: the intent's time is that machine's, 1 minute ahead here, and the refund the lost
 * request made has since completed (no longer active, so only its time tells it is the item's).
 * The resumed job searches from that time less `reconciliation.maxClockSkewMs`, so it finds the
 * refund instead of making a second one.
 */

import { randomUUID } from 'node:crypto';
import { requestRefunds } from 'partner-sdk/bulk';
import { RedisJournalStore } from 'partner-sdk/redis';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { collect } from '../bulk/support';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';
import { ioredis } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';

const redis = useRedisServer();

describe('a bulk job resumed from the Redis journal on another machine', () => {
  it('finds the refund the first run made on a machine 1 minute ahead, none made twice', async () => {
    const { mock, seller } = kitClients(createMockPartnerApi({ refundPolls: 0 }));
    const connection = await ioredis.connect(redis.url);
    try {
      const prefix = `bulk-${randomUUID()}:`;
      const hash = mock.addTransaction();
      // The machine that sent: its intent, on its clock, then it died with the answer unread.
      const written = new RedisJournalStore(connection.client, { prefix });
      await written.claim('cohort');
      const since = new Date(Date.now() + 60_000).toISOString();
      await written.put({ job: 'cohort', key: hash, state: 'intent', at: since, since });
      await written.release('cohort');
      expect((await seller.refunds.request(hash)).kind).toBe('accepted');
      expect((await seller.refunds.waitForCompletion(hash, { interval: 1 })).status).toBe(
        'completed',
      );

      const store = new RedisJournalStore(connection.client, { prefix });
      const outcomes = await collect(
        requestRefunds(seller, [hash], { journal: { store, job: 'cohort' } }),
      );
      expect(outcomes[0]).toMatchObject({
        status: 'succeeded',
        reconciled: true,
        result: { kind: 'existing', refund: { status: 'completed' } },
      });
      expect(refundPostsTo(mock, hash)).toBe(1);
    } finally {
      await connection.close();
    }
  });
});
