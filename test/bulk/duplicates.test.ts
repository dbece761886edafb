/**
 * A key repeated in one job's input is one item: the first occurrence is done once, the later ones
 * are reported `duplicate` and never sent, with or without a journal.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileJournal, requestRefunds, runBulk, updateOffers } from 'partner-sdk/bulk';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, setup } from './support';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('a key repeated in one job', () => {
  it('is requested once; the repeats are reported as duplicates and never sent', async () => {
    const { mock, seller, refundPosts } = setup({ refundPolls: 0 });
    const dupA = mock.addTransaction();
    const other = mock.addTransaction();
    const job = requestRefunds(seller, [dupA, dupA, other, dupA], { concurrency: 4 });
    const outcomes = await collect(job);
    const summary = await job;

    expect(refundPosts(dupA)).toBe(1);
    expect(refundPosts(other)).toBe(1);
    expect(
      outcomes
        .filter((o) => o.key === dupA)
        .map((o) => o.status)
        .sort(),
    ).toEqual(['duplicate', 'duplicate', 'succeeded']);
    expect(summary).toMatchObject({ succeeded: 2, duplicate: 2, total: 4 });
  });

  it('is still validated: a bad repeat is failed in a dry run and in a real one, never sent, and a bad first leaves its key to a good repeat', async () => {
    const { mock, seller } = setup();
    const { hash, offerCode } = mock.products.course;
    const items = [
      { productHash: hash, offerCode, params: { price: 4_990 } },
      { productHash: hash, offerCode, params: { price: -5 } },
    ];
    const dry = await collect(updateOffers(seller, items, { dryRun: true }));
    expect(dry.map((o) => o.status)).toEqual(['valid', 'failed']);
    const before = mock.stats.requests;
    const outcomes = await collect(updateOffers(seller, items));
    expect(outcomes.map((o) => o.status).sort()).toEqual(['failed', 'succeeded']);
    expect(outcomes.find((o) => o.status === 'failed')).toMatchObject({
      error: { name: 'RequestValidationError' },
      inDoubt: false,
    });
    expect(mock.stats.requests - before).toBe(1);
    // A bad first occurrence was never started: the good one after it is sent, not a duplicate.
    const reversed = await collect(updateOffers(seller, [...items].reverse()));
    expect(reversed.map((o) => o.status)).toEqual(['failed', 'succeeded']);
  });

  it('is sent once with a journal too, even when the first occurrence finished long before', async () => {
    const { mock, seller, refundPosts } = setup({ refundPolls: 0 });
    const dir = await mkdtemp(join(tmpdir(), 'partner-dup-'));
    dirs.push(dir);
    const store = await FileJournal.open(join(dir, 'journal.jsonl'));
    const dupA = mock.addTransaction();
    const between = Array.from({ length: 5 }, () => mock.addTransaction());
    // No window at all: only the journal's own records of this run can tell the repeat.
    const job = requestRefunds(seller, [dupA, ...between, dupA, dupA], {
      concurrency: 1,
      dedupeWindow: 0,
      journal: { store, job: 'cohort' },
    });
    const outcomes = await collect(job);
    await store.close();

    expect(refundPosts(dupA)).toBe(1);
    expect(outcomes.filter((o) => o.key === dupA).map((o) => o.status)).toEqual([
      'succeeded',
      'duplicate',
      'duplicate',
    ]);
  });

  it('is recognised while its first occurrence is in flight or within the window, in bounded memory', async () => {
    const sent: string[] = [];
    const operation = {
      key: (item: string) => item,
      run: async (item: string) => {
        sent.push(item);
        return item;
      },
    };
    // Window 2: a repeat three finished items later is beyond it (without a journal).
    const items = ['a', 'b', 'a', 'c', 'd', 'e', 'a'];
    const outcomes = await collect(runBulk(items, operation, { concurrency: 1, dedupeWindow: 2 }));
    const statusesOf = (key: string) => outcomes.filter((o) => o.key === key).map((o) => o.status);
    expect(statusesOf('a')).toEqual(['succeeded', 'duplicate', 'succeeded']);
    expect(outcomes).toHaveLength(items.length);
    expect(sent).toEqual(['a', 'b', 'c', 'd', 'e', 'a']);
  });

  it('refuses a dedupeWindow that is not a whole number ≥ 0', () => {
    const operation = { key: (item: string) => item, run: async (item: string) => item };
    expect(() => runBulk(['a'], operation, { dedupeWindow: -1 })).toThrow(/dedupeWindow/);
  });
});
