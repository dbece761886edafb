/**
 * Bulk items whose request the service acted on (answered 2xx) while the answer reached the job
 * spoilt: its body cut short, half a gzip stream, an HTML page, an empty body, JSON of another
 * shape. The job's outcome for such an item, and its journal, must never lead a resume (even with
 * `retryFailed`) to make a second refund; an offer update left failed is not sent again by a
 * plain resume.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient } from 'partner-sdk';
import { FileJournal, requestRefunds, updateOffers } from 'partner-sdk/bulk';
import { afterEach, describe, expect, it } from 'vitest';
import { SPOILT, type Spoilt, spoilAnswer } from '../helpers/lossy-proxy';
import { type SpoiltRefunds, startSpoiltRefunds } from '../helpers/spoilt-refunds';
import { type StubServer, startStub } from '../helpers/stub-server';
import { collect } from './support';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function journal(): Promise<FileJournal> {
  const dir = await mkdtemp(join(tmpdir(), 'partner-bulk-spoilt-'));
  closers.push(() => rm(dir, { recursive: true, force: true }));
  return FileJournal.open(join(dir, 'job.jsonl'));
}

function clientOf(baseUrl: string, clientToken: string): PartnerClient {
  return new PartnerClient({ baseUrl, clientToken, logLevel: 'off' });
}

describe('requestRefunds, a 202 whose body is spoilt', () => {
  it.each(SPOILT)(
    'after %s, the job and its resume with retryFailed make one refund per transaction',
    async (how: Spoilt) => {
      const service: SpoiltRefunds = await startSpoiltRefunds(how, 2);
      closers.push(() => service.close());
      const seller = clientOf(service.proxy.baseUrl, service.mock.credentials.clientToken).forUser(
        service.sellerToken,
      );
      const store = await journal();
      const first = await collect(
        requestRefunds(seller, service.transactions, { journal: { store, job: 'spoilt' } }),
      );
      // A 202 is the refund accepted whatever its body; a body cut off is reconciled (the refund
      // found); JSON of another shape fails the item, marked as one the service may have acted on.
      const expected =
        how === 'reshaped-after'
          ? { status: 'failed', inDoubt: true }
          : { status: 'succeeded', reconciled: how.startsWith('cut-') };
      expect(first).toEqual(service.transactions.map(() => expect.objectContaining(expected)));
      const resumed = await requestRefunds(seller, service.transactions, {
        journal: { store, job: 'spoilt' },
        retryFailed: true,
      });
      expect(resumed).toMatchObject(
        how === 'reshaped-after' ? { succeeded: 2, failed: 0 } : { skipped: 2 },
      );
      await store.close();
      for (const hash of service.transactions) {
        expect(await service.refundsOf(hash)).toHaveLength(1);
      }
      expect(service.posts()).toBe(2);
    },
  );
});

describe('updateOffers, a 200 whose body is spoilt', () => {
  it.each(SPOILT)(
    'after %s, an item left failed is in doubt and a resume without retryFailed sends nothing',
    async (how: Spoilt) => {
      const server: StubServer = await startStub((_request, res) =>
        spoilAnswer(
          how,
          res,
          200,
          Buffer.from(JSON.stringify({ data: { code: 'off_1', price: 100 } })),
        ),
      );
      closers.push(() => server.close());
      const seller = clientOf(server.baseUrl, 'tok').forUser('pub');
      const items = [{ productHash: 'prd_1', offerCode: 'off_1', params: { price: 100 } }];
      const store = await journal();
      const first = await collect(
        updateOffers(seller, items, { journal: { store, job: 'offers' }, maxAttempts: 2 }),
      );
      expect(first).toEqual([expect.objectContaining({ status: 'failed', inDoubt: true })]);
      const sent = server.requests.length;
      const resumed = await updateOffers(seller, items, { journal: { store, job: 'offers' } });
      await store.close();
      expect(resumed).toMatchObject({ skipped: 1 });
      expect(server.requests).toHaveLength(sent);
    },
  );
});
