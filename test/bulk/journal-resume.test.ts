import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FileJournal,
  JournalMismatchError,
  type JournalRecord,
  type JournalStore,
  requestRefunds,
  runBulk,
  updateOffers,
} from 'partner-sdk/bulk';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, setup } from './support';

/** A journal store in memory, recording every put in order. */
function memoryStore(): JournalStore & { log: JournalRecord[] } {
  const last = new Map<string, JournalRecord>();
  const log: JournalRecord[] = [];
  return {
    log,
    get: async (job, key) => structuredClone(last.get(`${job}\u0000${key}`)),
    put: async (record) => {
      log.push(structuredClone(record));
      last.set(`${record.job}\u0000${record.key}`, structuredClone(record));
    },
    close: async () => {},
  };
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function journalPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'partner-bulk-'));
  dirs.push(dir);
  return join(dir, 'job.jsonl');
}

describe('a bulk job with a journal', () => {
  it('records intent before each request and the outcome after', async () => {
    const { mock, seller } = setup();
    const store = memoryStore();
    const hash = mock.addTransaction();
    const sentAt: number[] = [];
    store.put = ((put) => async (record: JournalRecord) => {
      sentAt.push(mock.stats.requests);
      return put(record);
    })(store.put);
    await requestRefunds(seller, [hash], { journal: { store, job: 'j1' } });
    expect(store.log.map((r) => r.state)).toEqual(['intent', 'succeeded']);
    expect(store.log[0]).toMatchObject({ job: 'j1', key: hash });
    expect(store.log[0]!.since).toBe(store.log[0]!.at);
    expect(store.log[1]!.detail).toEqual({ kind: 'accepted' });
    // The intent was durable before the request went out; the outcome after its answer.
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(1);
  });

  it('skips finished items on a second run and sends nothing for them', async () => {
    const { mock, seller } = setup();
    const store = await FileJournal.open(await journalPath());
    const hashes = Array.from({ length: 10 }, () => mock.addTransaction());
    const first = await requestRefunds(seller, [...hashes, 'trx_unknown'], {
      journal: { store, job: 'cohort' },
    });
    expect(first).toMatchObject({ succeeded: 10, failed: 1 });
    const before = mock.stats.requests;
    const again = requestRefunds(seller, [...hashes, 'trx_unknown'], {
      journal: { store, job: 'cohort' },
    });
    const outcomes = await collect(again);
    expect(outcomes.every((o) => o.status === 'skipped')).toBe(true);
    expect(outcomes[0]).toMatchObject({ previous: { state: 'succeeded' } });
    expect(await again).toMatchObject({ skipped: 11, succeeded: 0 });
    expect(mock.stats.requests).toBe(before);
    await store.close();
  });

  it('tries failed items again with retryFailed', async () => {
    const { mock, seller } = setup();
    const store = memoryStore();
    const hash = mock.addTransaction();
    mock.failNext({
      status: 422,
      path: `/financial/refund/${hash}`,
      body: { message: 'Not now.' },
    });
    expect(await requestRefunds(seller, [hash], { journal: { store, job: 'j' } })).toMatchObject({
      failed: 1,
    });
    expect(await requestRefunds(seller, [hash], { journal: { store, job: 'j' } })).toMatchObject({
      skipped: 1,
    });
    expect(
      await requestRefunds(seller, [hash], { journal: { store, job: 'j' }, retryFailed: true }),
    ).toMatchObject({ succeeded: 1 });
  });

  it('reconciles an item whose intent has no outcome: the refund that request made is the outcome', async () => {
    const { mock, seller, refundPosts, refundsOf } = setup({ refundPolls: 0 });
    const store = memoryStore();
    const hash = mock.addTransaction();
    const since = new Date(Date.now() - 1_000).toISOString();
    // A run crashed after sending: its intent is recorded, the service made the refund (and it has
    // completed since, so a blind repeat would refund twice), the answer was lost.
    await store.put({ job: 'j', key: hash, state: 'intent', at: since, since });
    await seller.refunds.request(hash);
    // Two polls: requested → success (still active) → completed.
    await seller.refunds.retrieveStatus(hash);
    await seller.refunds.retrieveStatus(hash);
    const outcomes = await collect(
      requestRefunds(seller, [hash], { journal: { store, job: 'j' } }),
    );
    expect(outcomes[0]).toMatchObject({
      status: 'succeeded',
      reconciled: true,
      result: { kind: 'existing', refund: { status: 'completed' } },
    });
    expect(refundPosts(hash)).toBe(1);
    expect(await refundsOf(hash)).toHaveLength(1);
    expect(store.log.at(-1)).toMatchObject({ state: 'succeeded', detail: { kind: 'existing' } });
  });

  it('sends an item whose intent has no outcome once, when reconciling finds nothing made', async () => {
    const { mock, seller, refundPosts } = setup();
    const store = memoryStore();
    const hash = mock.addTransaction();
    const since = new Date().toISOString();
    await store.put({ job: 'j', key: hash, state: 'intent', at: since, since });
    const outcomes = await collect(
      requestRefunds(seller, [hash], { journal: { store, job: 'j' } }),
    );
    expect(outcomes[0]).toMatchObject({ status: 'succeeded', reconciled: false });
    expect(refundPosts(hash)).toBe(1);
    // The new intent keeps the first request's time, so a later reconciliation still looks from there.
    expect(store.log.at(-2)).toMatchObject({ state: 'intent', since });
  });

  it('sends an in-doubt offer update again: a PUT is safe to repeat', async () => {
    const { mock, seller } = setup();
    const store = memoryStore();
    const { hash, offerCode } = mock.products.course;
    const key = `${hash}/${offerCode}`;
    await store.put({ job: 'o', key, state: 'intent', at: new Date().toISOString() });
    const outcomes = await collect(
      updateOffers(seller, [{ productHash: hash, offerCode, params: { price: 12_345 } }], {
        journal: { store, job: 'o' },
      }),
    );
    expect(outcomes[0]).toMatchObject({ status: 'succeeded', result: { price: 12_345 } });
    expect(mock.getOffer(hash, offerCode)?.price).toBe(12_345);
  });

  it('does not repeat an in-doubt item it can neither check nor safely repeat', async () => {
    const store = memoryStore();
    await store.put({ job: 'g', key: 'a', state: 'intent', at: new Date().toISOString() });
    let runs = 0;
    const outcomes = await collect(
      runBulk(['a'], { key: (x) => x, run: async () => ++runs }, { journal: { store, job: 'g' } }),
    );
    expect(outcomes[0]).toMatchObject({ status: 'failed', inDoubt: true });
    expect((outcomes[0] as { error: Error }).error.name).toBe('InDoubtError');
    expect(runs).toBe(0);
  });

  it("stops before sending anything when the journal is another job's", async () => {
    const { mock, seller } = setup();
    const path = await journalPath();
    const store = await FileJournal.open(path);
    await requestRefunds(seller, [mock.addTransaction()], { journal: { store, job: 'refunds-a' } });
    const before = mock.stats.requests;
    await expect(
      requestRefunds(seller, [mock.addTransaction()], { journal: { store, job: 'refunds-b' } }),
    ).rejects.toThrow(JournalMismatchError);
    expect(mock.stats.requests).toBe(before);
    await store.close();
  });

  it('stops the job when the journal cannot record, and the failure is the job’s', async () => {
    const { mock, seller } = setup();
    const store = memoryStore();
    let puts = 0;
    store.put = async () => {
      if (++puts > 3) throw new Error('disk full');
    };
    const hashes = Array.from({ length: 20 }, () => mock.addTransaction());
    const job = requestRefunds(seller, hashes, { journal: { store, job: 'j' }, concurrency: 1 });
    await expect(job).rejects.toThrow('disk full');
    // Nothing is sent once an intent cannot be recorded.
    expect(mock.requests.filter((r) => r.method === 'POST').length).toBeLessThanOrEqual(2);
  });
});
