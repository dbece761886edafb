/**
 * An item that failed in doubt (its request timed out after the service made the refund) keeps
 * in its journal record when that request was sent, so that `retryFailed` reconciles it from
 * there: the failure is recorded later than the send by the time-out, and a search from the
 * failure would miss the refund once it has completed. Here the margin and the skew bound are
 * narrowed (clocks a partner keeps by NTP) so the time-out alone exceeds them.
 */

import { createServer } from 'node:http';
import { type JournalRecord, type JournalStore, requestRefunds } from 'partner-sdk/bulk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../helpers/http-servers';
import { kitRequest, writeAnswer } from '../helpers/kit-bridge';
import { kitClients, refundPostsTo } from '../helpers/kit-clients';
import { collect } from './support';

const servers = closedAfterEach();

/** A journal store in memory. */
function memoryStore(): JournalStore & { last: (key: string) => JournalRecord | undefined } {
  const records = new Map<string, JournalRecord>();
  return {
    last: (key) => records.get(key),
    get: async (_job, key) => structuredClone(records.get(key)),
    put: async (record) => void records.set(record.key, structuredClone(record)),
    close: async () => {},
  };
}

/** The kit on loopback, holding every refund request's answer once the kit acted, until cleanup. */
async function holdingRefundAnswers(mock: ReturnType<typeof createMockPartnerApi>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  servers.onCleanup(() => release());
  const server = createServer(async (req, res) => {
    const answer = await mock.fetch(await kitRequest(mock, req));
    const body = Buffer.from(await answer.arrayBuffer());
    if (req.method === 'POST' && req.url?.includes('/financial/refund/')) await released;
    writeAnswer(res, answer, body);
  });
  return `${(await servers.serve(server)).url}/api/v1`;
}

describe('a bulk item that failed in doubt', () => {
  it('is reconciled under retryFailed from when its request was sent, finding the refund since completed', async () => {
    const mock = createMockPartnerApi({ refundPolls: 0 });
    const reconciliation = { marginMs: 1_000, maxClockSkewMs: 0 };
    const { seller } = kitClients(mock, { assumptions: { reconciliation } });
    const { seller: held } = kitClients(mock, {
      baseUrl: await holdingRefundAnswers(mock),
      fetch: globalThis.fetch,
      assumptions: { reconciliation },
    });
    const store = memoryStore();
    const hash = mock.addTransaction();
    const journal = { store, job: 'cohort' };
    const requestOptions = { timeout: 1_500 };
    const [first] = await collect(
      requestRefunds(held, [hash], { journal, maxAttempts: 1, requestOptions }),
    );
    expect(first).toMatchObject({ status: 'failed', inDoubt: true });
    const failed = store.last(hash)!;
    expect(failed).toMatchObject({ state: 'failed', detail: { inDoubt: true } });
    expect(Date.parse(failed.since!)).toBeLessThan(Date.parse(failed.at));
    expect((await seller.refunds.waitForCompletion(hash, { interval: 1 })).status).toBe(
      'completed',
    );

    const [again] = await collect(requestRefunds(seller, [hash], { journal, retryFailed: true }));
    expect(again).toMatchObject({ status: 'succeeded', reconciled: true });
    expect(refundPostsTo(mock, hash)).toBe(1);
  });
});
