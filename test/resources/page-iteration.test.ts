/**
 * Pagination ergonomics (issue 14): `iterPages()` walks pages, `toArray({ limit })` collects items
 * and stops fetching at the limit; both on the `PagePromise` and on any `Page`.
 */

import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../src/index';

const PER_PAGE = 2;
const LAST_PAGE = 3;

/** A client whose fake service lists 3 pages of 2 products, recording each page asked for. */
function pagedClient() {
  const pagesAsked: number[] = [];
  const client = new PartnerClient({
    baseUrl: 'https://partner.test/api/v1',
    clientToken: 'client-token',
    logLevel: 'off',
    fetch: async (input, init) => {
      const url = new URL(new Request(input, init).url);
      const page = Number(url.searchParams.get('page') ?? '1');
      pagesAsked.push(page);
      const data = [0, 1].map((index) => ({ hash: `prd_${page}_${index}` }));
      return Response.json({
        data,
        meta: { current_page: page, last_page: LAST_PAGE, per_page: PER_PAGE, total: 6 },
      });
    },
  });
  return { client, pagesAsked };
}

describe('iterPages()', () => {
  it('yields every page in order, fetching each once', async () => {
    const { client, pagesAsked } = pagedClient();
    const seen: number[] = [];
    for await (const page of client.products.list().iterPages()) {
      seen.push(page.pagination.current_page);
      expect(page.data).toHaveLength(PER_PAGE);
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(pagesAsked).toEqual([1, 2, 3]);
  });

  it('fetches no further page after a break', async () => {
    const { client, pagesAsked } = pagedClient();
    for await (const page of client.products.list().iterPages()) {
      if (page.pagination.current_page === 2) break;
    }
    expect(pagesAsked).toEqual([1, 2]);
  });

  it('starts from the page it is called on', async () => {
    const { client } = pagedClient();
    const second = await (await client.products.list()).getNextPage();
    const seen: number[] = [];
    for await (const page of second.iterPages()) seen.push(page.pagination.current_page);
    expect(seen).toEqual([2, 3]);
  });
});

describe('toArray({ limit })', () => {
  it('collects every item when the list is shorter than the limit', async () => {
    const { client } = pagedClient();
    const products = await client.products.list().toArray({ limit: 100 });
    expect(products.map((product) => product.hash)).toEqual([
      'prd_1_0',
      'prd_1_1',
      'prd_2_0',
      'prd_2_1',
      'prd_3_0',
      'prd_3_1',
    ]);
  });

  it('stops at the limit, fetching no page beyond the one that reached it', async () => {
    const { client, pagesAsked } = pagedClient();
    const products = await client.products.list().toArray({ limit: 3 });
    expect(products.map((product) => product.hash)).toEqual(['prd_1_0', 'prd_1_1', 'prd_2_0']);
    expect(pagesAsked).toEqual([1, 2]);
  });

  it('works on a Page as well', async () => {
    const { client } = pagedClient();
    const first = await client.products.list();
    expect(await first.toArray({ limit: 2 })).toEqual(first.data);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, undefined])(
    'refuses limit %s with a RangeError, fetching nothing more',
    async (limit) => {
      const { client, pagesAsked } = pagedClient();
      const page = await client.products.list();
      await expect(page.toArray({ limit } as { limit: number })).rejects.toThrow(RangeError);
      await expect(client.products.list().toArray({ limit } as { limit: number })).rejects.toThrow(
        /positive integer/,
      );
      expect(pagesAsked).toEqual([1, 1]);
    },
  );
});
