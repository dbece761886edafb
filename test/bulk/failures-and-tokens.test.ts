/**
 * The guide's "who retries" list item by item, through `partner-sdk/bulk`: a 408 or a 5xx other
 * than 501 and 503 is sent again up to `maxAttempts` (3), anything else fails the item at once;
 * and an item's seller token is sent but never written to the journal, and named when refused.
 */

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthenticationError } from 'partner-sdk';
import { FileJournal, requestRefunds, updateOffers } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { collect, setup } from './support';

describe('bulk failures and seller tokens', () => {
  it.each([
    [408, 2, 'succeeded'],
    [500, 3, 'failed'],
    [502, 2, 'succeeded'],
    [501, 1, 'failed'],
    [400, 1, 'failed'],
    [409, 1, 'failed'],
  ] as const)(
    'a %i answered to one item: %i attempt(s), then %s; the others go on',
    async (status, attempts, end) => {
      const { mock, seller, refundPosts } = setup();
      const [hit, other] = [mock.addTransaction(), mock.addTransaction()];
      // Enough failures for the attempts a retried status gets, or a single one.
      const times = end === 'failed' ? attempts : attempts - 1;
      mock.failNext({ status, times, method: 'POST', path: `/financial/refund/${hit}` });
      const job = requestRefunds(seller, [hit, other], { concurrency: 1 });
      const outcomes = await collect(job);
      mock.clearFaults();
      expect(outcomes.find((o) => o.key === hit)?.status).toBe(end);
      expect(outcomes.find((o) => o.key === other)?.status).toBe('succeeded');
      expect(refundPosts(hit)).toBe(attempts);
    },
  );

  it("sends each item's seller token and writes none to the journal", async () => {
    const { mock, client } = setup();
    const dir = await mkdtemp(join(tmpdir(), 'partner-bulk-tokens-'));
    try {
      const path = join(dir, 'journal.jsonl');
      const store = await FileJournal.open(path);
      const tokens = [mock.sellers.person.publicToken, mock.sellers.company.publicToken];
      const items = tokens.map((sellerToken) => ({
        transactionHash: mock.addTransaction(),
        sellerToken,
      }));
      const summary = await requestRefunds(client, items, { journal: { store, job: 'tokens' } });
      await store.close();
      expect(summary.succeeded).toBe(2);
      const written = await readFile(path, 'utf8');
      expect(written).toContain(items[0]!.transactionHash);
      for (const token of tokens) expect(written).not.toContain(token);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names the item's sellerToken when the service refuses it, the token never shown", async () => {
    const { mock, client } = setup();
    const { course } = mock.products;
    const [outcome] = await collect(
      updateOffers(client, [
        {
          productHash: course.hash,
          offerCode: course.offerCode,
          params: { price: 4990 },
          sellerToken: 'tok_revoked_seller',
        },
      ]),
    );
    expect(outcome?.status).toBe('failed');
    const error = outcome?.status === 'failed' ? outcome.error : undefined;
    expect(error).toBeInstanceOf(AuthenticationError);
    const { message } = error as AuthenticationError;
    expect(message).toContain("seller's public token was refused");
    expect(message).toContain("a bulk item's sellerToken");
    expect(message).not.toContain('tok_revoked_seller');
  });
});
