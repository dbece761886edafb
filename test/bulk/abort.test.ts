import type { JournalRecord, JournalStore } from 'partner-sdk/bulk';
import { requestRefunds } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { setup } from './support';

function memoryStore(): JournalStore & { last: Map<string, JournalRecord> } {
  const last = new Map<string, JournalRecord>();
  return {
    last,
    get: async (_job, key) => structuredClone(last.get(key)),
    put: async (record) => {
      last.set(record.key, structuredClone(record));
    },
    close: async () => {},
  };
}

describe('aborting a bulk job', () => {
  it('stops cleanly: in-flight items are interrupted with their intent kept, and a resumed job does each once', async () => {
    const { mock, seller, refundPosts, refundsOf } = setup({ latencyMs: 30 });
    const store = memoryStore();
    const hashes = Array.from({ length: 40 }, () => mock.addTransaction());
    const controller = new AbortController();
    const job = requestRefunds(seller, hashes, {
      concurrency: 4,
      maxConcurrency: 4,
      signal: controller.signal,
      journal: { store, job: 'j' },
    });
    const statuses: string[] = [];
    for await (const outcome of job) {
      statuses.push(outcome.status);
      if (statuses.length === 10) controller.abort();
    }
    const summary = await job;
    expect(summary.aborted).toBe(true);
    expect(summary.interrupted).toBeGreaterThanOrEqual(1);
    expect(summary.succeeded + summary.interrupted).toBe(summary.total);
    expect(summary.total).toBeLessThan(40);
    // Nothing half-recorded: every item has either no record, an outcome, or (interrupted) its intent.
    const states = [...store.last.values()].map((r) => r.state);
    expect(states.filter((s) => s === 'succeeded')).toHaveLength(summary.succeeded);
    expect(states.filter((s) => s === 'intent')).toHaveLength(summary.interrupted);

    const resumed = await requestRefunds(seller, hashes, {
      journal: { store, job: 'j' },
      concurrency: 8,
    });
    expect(resumed.skipped).toBe(summary.succeeded);
    expect(resumed.succeeded).toBe(40 - summary.succeeded);
    // An aborted request may or may not have reached the service: either way, one refund each.
    for (const hash of hashes) expect(await refundsOf(hash)).toHaveLength(1);
    expect(refundPosts()).toBeGreaterThanOrEqual(40);
  });

  it('starts nothing when the signal is already aborted', async () => {
    const { mock, seller } = setup();
    const before = mock.stats.requests;
    const summary = await requestRefunds(seller, [mock.addTransaction()], {
      signal: AbortSignal.abort(),
    });
    expect(summary).toMatchObject({ aborted: true, total: 0 });
    expect(mock.stats.requests).toBe(before);
  });

  it('stops when the reader leaves the loop, and closes the input', async () => {
    const { mock, seller } = setup({ latencyMs: 10 });
    let closed = false;
    const job = requestRefunds(
      seller,
      (function* () {
        try {
          for (;;) yield mock.addTransaction();
        } finally {
          closed = true;
        }
      })(),
    );
    let seen = 0;
    for await (const _ of job) if (++seen === 5) break;
    const summary = await job;
    expect(summary.aborted).toBe(true);
    expect(closed).toBe(true);
  });
});
