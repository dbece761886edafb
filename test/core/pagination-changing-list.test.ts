/**
 * The pagination guide on a list that changes while a walk is between pages: the service pages by
 * number (Laravel's `page`/`per_page`), so an item added before the walk's position shifts every
 * later item by one, and an item removed shifts them back. Tried through the public API by name
 * against a loopback service whose list the test changes between pages.
 */

import { APIError, PartnerClient } from 'partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { json, type StubServer, startStub } from '../helpers/stub-server';

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A Laravel-style listing of `list` (newest first), `fail(page)` answering some pages with a status. */
async function listing(
  list: string[],
  fail: (page: number) => number | undefined = () => undefined,
) {
  server = await startStub((req, res) => {
    const query = new URL(req.path, 'http://x').searchParams;
    const page = Number(query.get('page') ?? 1);
    const perPage = Number(query.get('per_page') ?? 15);
    const status = fail(page);
    if (status) return json(res, status, { message: 'Server Error' }, { 'retry-after': '1' });
    const data = list.slice((page - 1) * perPage, page * perPage).map((hash) => ({ hash }));
    const last = Math.max(1, Math.ceil(list.length / perPage));
    json(res, 200, {
      data,
      meta: { current_page: page, last_page: last, per_page: perPage, total: list.length },
      links: { next: page < last ? `https://elsewhere.test/products?page=${page + 1}` : null },
    });
  });
  return new PartnerClient({ baseUrl: server.baseUrl, clientToken: 'walk-token', logLevel: 'off' });
}

const hashes = (n: number) => Array.from({ length: n }, (_, i) => `prd_${i + 1}`);

describe('a walk over a list that changes between pages', () => {
  it('passes each item once when one is added at the head mid-walk (the shifted one is not repeated)', async () => {
    const list = hashes(9);
    const client = await listing(list);
    const seen: string[] = [];
    for await (const product of client.products.list({ per_page: 3 })) {
      seen.push(product.hash);
      if (seen.length === 3) list.unshift('prd_new');
    }
    expect(seen).toEqual(hashes(9));
  });

  it('passes each item once to toArray as well', async () => {
    const list = hashes(6);
    const client = await listing(list);
    const first = await client.products.list({ per_page: 2 });
    list.unshift('prd_new');
    const items = await first.toArray({ limit: 100 });
    expect(items.map((p) => p.hash)).toEqual(hashes(6));
  });

  it('misses the item shifted back onto a page already walked when one is removed mid-walk, as the guide says', async () => {
    const list = hashes(9);
    const client = await listing(list);
    const seen: string[] = [];
    for await (const product of client.products.list({ per_page: 3 })) {
      seen.push(product.hash);
      if (seen.length === 3) list.shift();
    }
    // prd_4 moved onto page 1, already walked: no page-number walk can see it.
    expect(seen).toEqual(hashes(9).filter((h) => h !== 'prd_4'));
  });

  it('gives iterPages each page as the service sent it, a repeat included, its total telling the change', async () => {
    const list = hashes(4);
    const client = await listing(list);
    const pages: string[][] = [];
    const totals: number[] = [];
    for await (const page of client.products.list({ per_page: 2 }).iterPages()) {
      pages.push(page.data.map((p) => p.hash));
      totals.push(page.pagination.total);
      if (pages.length === 1) list.unshift('prd_new');
    }
    expect(pages).toEqual([['prd_1', 'prd_2'], ['prd_2', 'prd_3'], ['prd_4']]);
    expect(totals).toEqual([4, 5, 5]);
  });
});

describe('a page that fails mid-walk', () => {
  it('is asked again after a 429 with Retry-After, the walk going on to the end', async () => {
    let refusals = 0;
    const client = await listing(hashes(6), (page) =>
      page === 2 && refusals++ === 0 ? 429 : undefined,
    );
    const seen: string[] = [];
    for await (const p of client.products.list({ per_page: 2 })) seen.push(p.hash);
    expect(seen).toEqual(hashes(6));
    expect(server!.requests.map((r) => r.path)).toEqual([
      '/products?per_page=2',
      '/products?per_page=2&page=2',
      '/products?per_page=2&page=2',
      '/products?per_page=2&page=3',
    ]);
  });

  it('ends an iterPages walk with its error, and a walk from the page after the last one held, by `page`, ends the list', async () => {
    let failing = true;
    const client = await listing(hashes(6), (page) => (page === 2 && failing ? 500 : undefined));
    const seen: string[] = [];
    let held: number | undefined;
    const walk = async (page?: number) => {
      const list = client.products.list({ per_page: 2, page }, { maxRetries: 0 });
      for await (const one of list.iterPages()) {
        seen.push(...one.data.map((p) => p.hash));
        held = one.pagination.current_page;
      }
    };
    const error = await walk().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(500);
    expect(held).toBe(1);
    failing = false;
    await walk(held! + 1);
    expect(seen).toEqual(hashes(6));
  });
});

describe('a links.next the service sends', () => {
  it('is not followed: every page is asked of the client’s own origin, with its credentials', async () => {
    const client = await listing(hashes(4));
    const seen: string[] = [];
    for await (const p of client.products.list({ per_page: 2 })) seen.push(p.hash);
    expect(seen).toEqual(hashes(4));
    expect(server!.requests.map((r) => r.path)).toEqual([
      '/products?per_page=2',
      '/products?per_page=2&page=2',
    ]);
    expect(server!.requests.every((r) => r.headers['x-api-client-token'] === 'walk-token')).toBe(
      true,
    );
  });
});
