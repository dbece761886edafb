/**
 * The pagination guide's promises against a service that misbehaves, through the public API by
 * name: a page with more items than asked for, a `last_page` that shrinks mid-walk, a repeated page.
 * Each page's own counters decide the walk; items are passed on as the service sent them.
 */

import {
  APIUserAbortError,
  InternalServerError,
  PartnerClient,
  ResponseValidationError,
} from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { json, type StubServer, stubsClosedAfterEach } from '../helpers/stub-server';

const stub = stubsClosedAfterEach();
let server: StubServer | undefined;

type Meta = { current_page: number; last_page: number; per_page: number; total: number };

/** A service answering page `n` with `items(n)` products and the counters `meta(n)`. */
async function listing(items: (page: number) => number, meta: (page: number) => Meta) {
  server = await stub((req, res) => {
    const page = Number(new URL(req.path, 'http://x').searchParams.get('page') ?? 1);
    const data = Array.from({ length: items(page) }, (_, i) => ({ hash: `prd_${page}_${i}` }));
    json(res, 200, { data, meta: meta(page) });
  });
  const client = new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'walk-token',
    logLevel: 'off',
  });
  return { client, pagesAsked: () => server!.requests.map((r) => r.path) };
}

describe('page walks over a service that does not keep to its counters', () => {
  it('passes on every item of a page larger than per_page, and toArray still stops at limit', async () => {
    const { client, pagesAsked } = await listing(
      () => 5,
      (page) => ({ current_page: page, last_page: 3, per_page: 2, total: 6 }),
    );
    const first = await client.products.list({ per_page: 2 });
    expect(first.data).toHaveLength(5);
    const items = await client.products.list({ per_page: 2 }).toArray({ limit: 7 });
    expect(items.map((p) => p.hash)).toEqual([
      ...[0, 1, 2, 3, 4].map((i) => `prd_1_${i}`),
      'prd_2_0',
      'prd_2_1',
    ]);
    // The first `await`, then the walk's two pages: none past the one that reached the limit.
    expect(pagesAsked()).toEqual([
      '/products?per_page=2',
      '/products?per_page=2',
      '/products?per_page=2&page=2',
    ]);
  });

  it('ends the walk at the last_page of the latest page when it shrinks mid-walk', async () => {
    const { client, pagesAsked } = await listing(
      () => 1,
      (page) => ({ current_page: page, last_page: page === 1 ? 5 : 2, per_page: 1, total: 5 }),
    );
    const pages: number[] = [];
    for await (const page of client.products.list({ per_page: 1 }).iterPages()) {
      pages.push(page.pagination.current_page);
    }
    expect(pages).toEqual([1, 2]);
    expect(pagesAsked()).toHaveLength(2);
  });

  it('ends the walk with ResponseValidationError when a page comes back as the one before', async () => {
    const { client } = await listing(
      () => 1,
      () => ({ current_page: 1, last_page: 3, per_page: 1, total: 3 }),
    );
    const first = await client.products.list({ per_page: 1 });
    const error = await first.getNextPage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.code).toBe('page_not_advancing');
  });
  it('ends the walk with ResponseValidationError when a page comes back as one further on than asked', async () => {
    // The service answers page 4 when asked for page 2: pages 2 and 3 would be skipped unseen.
    const { client, pagesAsked } = await listing(
      () => 1,
      (page) => ({ current_page: page === 2 ? 4 : page, last_page: 6, per_page: 1, total: 6 }),
    );
    const seen: string[] = [];
    const walk = async () => {
      for await (const p of client.products.list({ per_page: 1 })) seen.push(p.hash);
    };
    const error = await walk().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.code).toBe('page_not_asked');
    expect(seen).toEqual(['prd_1_0']);
    expect(pagesAsked()).toHaveLength(2);
  });

  it('gives a page past the last with no items, a walk from it yielding none and asking no more', async () => {
    const { client, pagesAsked } = await listing(
      (page) => (page > 3 ? 0 : 1),
      (page) => ({ current_page: page, last_page: 3, per_page: 1, total: 3 }),
    );
    const past = await client.products.list({ page: 5, per_page: 1 });
    expect(past.data).toEqual([]);
    expect(past.hasNextPage()).toBe(false);
    expect(() => past.getNextPage()).toThrow(RangeError);
    const seen: string[] = [];
    for await (const p of client.products.list({ page: 5, per_page: 1 })) seen.push(p.hash);
    expect(seen).toEqual([]);
    expect(pagesAsked()).toEqual(['/products?page=5&per_page=1', '/products?page=5&per_page=1']);
  });
});

describe('the options of a list call, on every page of its walk', () => {
  /** Three pages of one product; page 2 fails with `page2` when it is given. */
  async function threePages(page2?: number) {
    server = await stub((req, res) => {
      const page = Number(new URL(req.path, 'http://x').searchParams.get('page') ?? 1);
      if (page === 2 && page2) return json(res, page2, { message: 'Server Error' });
      json(res, 200, {
        data: [{ hash: `prd_${page}` }],
        meta: { current_page: page, last_page: 3, per_page: 1, total: 3 },
      });
    });
    return new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'walk-token',
      logLevel: 'off',
    });
  }

  it('sends the call’s headers with every page', async () => {
    const client = await threePages();
    const headers = { 'x-walk': 'w-1' };
    const seen: string[] = [];
    for await (const p of client.products.list({ per_page: 1 }, { headers })) seen.push(p.hash);
    expect(seen).toEqual(['prd_1', 'prd_2', 'prd_3']);
    expect(server!.requests.map((r) => r.headers['x-walk'])).toEqual(['w-1', 'w-1', 'w-1']);
  });

  it('applies the call’s maxRetries to a later page, whose failure the loop throws after the items seen', async () => {
    const client = await threePages(500);
    const seen: string[] = [];
    const walk = async () => {
      for await (const p of client.products.list({ per_page: 1 }, { maxRetries: 0 })) {
        seen.push(p.hash);
      }
    };
    const error = await walk().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(seen).toEqual(['prd_1']);
    expect(server!.requests).toHaveLength(2);
  });

  it('ends the walk with APIUserAbortError when the call’s signal aborts between pages', async () => {
    const client = await threePages();
    const controller = new AbortController();
    const seen: string[] = [];
    const walk = async () => {
      const list = client.products.list({ per_page: 1 }, { signal: controller.signal });
      for await (const p of list) {
        seen.push(p.hash);
        controller.abort();
      }
    };
    const error = await walk().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(seen).toEqual(['prd_1']);
    expect(server!.requests).toHaveLength(1);
  });
});
