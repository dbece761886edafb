/**
 * The pagination guide at a big account's sizes, through the public API by name against a loopback
 * service holding 10,000 items: every list walks to its end at the service's largest `per_page`,
 * stops at products' page bound at the smallest, holds no page once it has handed it on, sends
 * nothing after a `break`, and ends promptly with `APIUserAbortError` when the signal aborts while
 * a page is on its way.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { APIUserAbortError, PartnerClient } from 'partner-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { json, type StubServer, startStub } from '../helpers/stub-server';
import { nextTurn, waitFor, withTimeout } from '../helpers/waits';

const ITEMS = 10_000;

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Pages of ITEMS items as each list sends them (products in `meta`, anticipations in `data.pagination`). */
async function bigAccount(stall: (page: number) => boolean = () => false) {
  server = await startStub((req, res) => {
    const query = new URL(req.path, 'http://x').searchParams;
    const page = Number(query.get('page') ?? 1);
    const perPage = Number(query.get('per_page'));
    if (stall(page)) return; // never answered: the test aborts it
    const items = Array.from(
      { length: Math.max(0, Math.min(perPage, ITEMS - (page - 1) * perPage)) },
      (_, i) => ({
        hash: `h_${(page - 1) * perPage + i}`,
        name: 'x'.repeat(200),
      }),
    );
    const counters = {
      current_page: page,
      last_page: Math.ceil(ITEMS / perPage),
      per_page: perPage,
      total: ITEMS,
    };
    if (req.path.startsWith('/products')) return json(res, 200, { data: items, meta: counters });
    json(res, 200, {
      status: 'success',
      message: 'ok',
      data: { anticipations: items, pagination: counters },
    });
  });
  return new PartnerClient({ baseUrl: server.baseUrl, clientToken: 'big-token', logLevel: 'off' });
}

const pagesAsked = () => server!.requests.length;

describe('a walk over 10,000 items', () => {
  it('walks every product at per_page 50 and every anticipation at per_page 100, to the end', async () => {
    const client = await bigAccount();
    let products = 0;
    for await (const _ of client.products.list({ per_page: 50 })) products += 1;
    expect(products).toBe(ITEMS);
    expect(pagesAsked()).toBe(200);
    let anticipations = 0;
    for await (const _ of client.forUser('seller-token').anticipations.list({ per_page: 100 })) {
      anticipations += 1;
    }
    expect(anticipations).toBe(ITEMS);
    expect(pagesAsked()).toBe(300);
  });

  it('stops at per_page 1 at page 999, the last page products can be asked for', async () => {
    const client = await bigAccount();
    let last: number | undefined;
    for await (const page of client.products.list({ per_page: 1 }).iterPages()) {
      last = page.pagination.current_page;
    }
    expect(last).toBe(999);
    expect(pagesAsked()).toBe(999);
  });

  it('holds no page it has handed on: the items of pages walked past are collected', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const client = await bigAccount();
    const handedOn: WeakRef<object>[] = [];
    let index = 0;
    const alive: number[][] = [];
    for await (const product of client.products.list({ per_page: 50 })) {
      if (index % 50 === 0) handedOn.push(new WeakRef(product));
      index += 1;
      if (index % 2_500 === 0) {
        // Collect on a later turn, once the walk's own references to earlier pages are gone.
        await nextTurn();
        gc();
        alive.push(handedOn.flatMap((ref, page) => (ref.deref() ? [page + 1] : [])));
      }
    }
    // At each checkpoint only the page in hand is alive (by the item the test holds), the first one
    // included.
    expect(alive).toEqual([[50], [100], [150], [200]]);
  });

  it('sends nothing more after a break halfway', async () => {
    const client = await bigAccount();
    let seen = 0;
    for await (const _ of client.products.list({ per_page: 50 })) {
      seen += 1;
      if (seen === ITEMS / 2) break;
    }
    await nextTurn();
    expect(pagesAsked()).toBe(100);
  });

  it('ends with APIUserAbortError, promptly, when the signal aborts while a page is on its way', async () => {
    const client = await bigAccount((page) => page === 101);
    const controller = new AbortController();
    let seen = 0;
    const walk = (async () => {
      for await (const _ of client.products.list({ per_page: 50 }, { signal: controller.signal })) {
        seen += 1;
      }
    })();
    await waitFor(() => pagesAsked() === 101, 'the stalled page to be asked for', 30_000);
    controller.abort();
    const error = await withTimeout(
      walk.catch((e: unknown) => e),
      2_000,
      'the walk to end',
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(seen).toBe(5_000);
    expect(pagesAsked()).toBe(101);
  });
});
