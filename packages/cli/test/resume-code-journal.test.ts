/**
 * One journal, two runners: a nightly `updateOffers` job in a partner's code, for many sellers
 * through the root client (each item with its `sellerToken`), stopped half-way, is resumed by an
 * operator with `offers update --file … --journal … --job-id …` (the bulk guide's "resume with the
 * same file"): what the code finished is skipped, the rest is sent, each offer once.
 */

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PartnerClient } from 'partner-sdk';
import { FileJournal, type OfferUpdateItem, updateOffers } from 'partner-sdk/bulk';
import { describe, expect, it } from 'vitest';
import { cli, jsonLines, useCliKit } from './run-cli';

const { mock, env, dir } = useCliKit('resume-code');

describe('a journal a job in code wrote, resumed by the CLI', { timeout: 90_000 }, () => {
  it('skips what the code finished and sends the rest once', async () => {
    const seller = mock.sellers.person.publicToken;
    const { course, ebook, recurring } = mock.products;
    const items: OfferUpdateItem[] = [course, ebook, recurring].map((product) => ({
      productHash: product.hash,
      offerCode: product.offerCode,
      params: { price: 12_990 },
      sellerToken: seller,
    }));
    const journal = join(dir, 'nightly.jsonl');
    const job = 'nightly-2026-11-27';
    const puts = () => mock.requests.filter((request) => request.method === 'PUT').length;

    // The code's run: the recurring offer's answer is slow, and the run is stopped once the other
    // two are done (a deploy restarting the process).
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      ...mock.credentials,
    });
    mock.failNext({
      delayMs: 30_000,
      method: 'PUT',
      path: `/products/${recurring.hash}/offers/${recurring.offerCode}`,
    });
    const stop = new AbortController();
    const store = await FileJournal.open(journal);
    let done = 0;
    try {
      for await (const outcome of updateOffers(client, items, {
        journal: { store, job },
        signal: stop.signal,
      })) {
        if (outcome.status === 'succeeded' && ++done === 2) stop.abort();
      }
    } finally {
      await store.close();
    }
    mock.clearFaults();
    expect(done).toBe(2);
    const before = puts();

    const file = join(dir, 'offers.jsonl');
    await writeFile(file, items.map((item) => JSON.stringify(item)).join('\n'));
    const resumed = await cli(
      ['--json', 'offers', 'update', '--file', file, '--journal', journal, '--job-id', job],
      { env: { ...env, PARTNER_API_SELLER_TOKEN: undefined } },
    );
    expect(resumed.code).toBe(0);
    const outcomes = jsonLines(resumed.stdout).filter((record) => 'key' in record);
    expect(outcomes.map((record) => [record.key, record.status])).toEqual([
      [`${course.hash}/${course.offerCode}`, 'skipped'],
      [`${ebook.hash}/${ebook.offerCode}`, 'skipped'],
      [`${recurring.hash}/${recurring.offerCode}`, 'succeeded'],
    ]);
    expect(puts() - before).toBe(1);
    expect(mock.getOffer(recurring.hash, recurring.offerCode)?.price).toBe(12_990);
    expect(resumed.stdout + resumed.stderr).not.toContain(seller);
  });
});
