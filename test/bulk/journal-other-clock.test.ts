/**
 * A bulk job resumed on another machine: the journal's intent (a file on shared storage here, as
 * the Redis journal store would hold it too) says when the first run was about to send, on THAT
 * machine's clock. Here that machine ran ahead; the first run's refund has since completed (no
 * longer active, so only its time tells it is the item's). The resumed job looks back the
 * documented skew bound (`reconciliation.maxClockSkewMs`) from that time, so the refund is found,
 * never made a second time; and a refund older than that bound before the intent is not taken as
 * the item's.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileJournal, requestRefunds } from 'partner-sdk/bulk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';
import { collect } from './support';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/**
 * A journal a machine `aheadMs` fast left with one intent and no outcome, the refund that request
 * made since completed, and this machine's seller (with `maxClockSkewMs`, when given).
 */
async function crashedElsewhere(aheadMs: number, maxClockSkewMs?: number) {
  const assumptions = maxClockSkewMs === undefined ? {} : { reconciliation: { maxClockSkewMs } };
  const { mock, seller } = kitClients(createMockPartnerApi({ refundPolls: 0 }), { assumptions });
  const dir = await mkdtemp(join(tmpdir(), 'partner-bulk-clock-'));
  dirs.push(dir);
  const path = join(dir, 'cohort.jsonl');
  const hash = mock.addTransaction();
  const written = await FileJournal.open(path);
  const since = new Date(Date.now() + aheadMs).toISOString();
  await written.put({ job: 'cohort', key: hash, state: 'intent', at: since, since });
  await written.close();
  expect((await seller.refunds.request(hash)).kind).toBe('accepted');
  expect((await seller.refunds.waitForCompletion(hash, { interval: 1 })).status).toBe('completed');
  const resume = async () => {
    const store = await FileJournal.open(path);
    try {
      return await collect(requestRefunds(seller, [hash], { journal: { store, job: 'cohort' } }));
    } finally {
      await store.close();
    }
  };
  return { resume, posts: () => refundPostsTo(mock, hash) };
}

describe('a bulk job resumed on a machine whose clock differs from the one that sent', () => {
  it.each([
    ['1 minute', 60_000],
    ['10 minutes', 10 * 60_000],
  ])(
    'finds the refund the first run made when that machine ran %s ahead',
    async (_what, aheadMs) => {
      const { resume, posts } = await crashedElsewhere(aheadMs);
      const [outcome] = await resume();
      expect(outcome).toMatchObject({
        status: 'succeeded',
        reconciled: true,
        result: { kind: 'existing', refund: { status: 'completed' } },
      });
      expect(posts()).toBe(1);
    },
  );

  it('a refund made longer before the intent than maxClockSkewMs is not taken as the item’s', async () => {
    const { resume, posts } = await crashedElsewhere(2 * 60_000, 60_000);
    const [outcome] = await resume();
    expect(outcome).toMatchObject({ status: 'succeeded', reconciled: false });
    expect(posts()).toBe(2);
  });
});
