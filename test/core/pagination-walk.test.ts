/**
 * The pagination guide: "The per-call options (`signal`, `timeout`, `maxRetries`…) of a list call
 * apply to every page it fetches. Each page is its own request, retried on transient failures like
 * any read; a failure that remains is thrown by the `await` or by the loop, so the items already
 * seen stay processed" — tried with a client token refused in the middle of a walk, a page whose
 * answer is dropped, and the call's options on later pages, against the testing kit.
 */

import { describe, expect, it } from 'vitest';
import { APIUserAbortError, InternalServerError, PartnerClient } from '../../src/index';
import { createMockPartnerApi } from '../../src/testing/index';
import { waitFor, withTimeout } from '../helpers/waits';

function clientOf(mock: ReturnType<typeof createMockPartnerApi>) {
  return new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    clientId: mock.credentials.clientId,
    clientSecret: mock.credentials.clientSecret,
    logLevel: 'off',
  });
}

describe('a walk over a list', () => {
  it('goes on through a client token refused mid-walk: one re-login, every item once', async () => {
    const mock = createMockPartnerApi();
    const client = clientOf(mock);
    const seen: string[] = [];
    for await (const product of client.products.list({ per_page: 1 })) {
      seen.push(product.hash);
      // The service forgets the token while the loop is between pages.
      if (seen.length === 2) mock.expireTokens();
    }
    const count = mock.products.hashes.length;
    expect(count).toBeGreaterThan(3);
    expect(seen).toHaveLength(count);
    expect(new Set(seen)).toEqual(new Set(mock.products.hashes));
    expect(mock.stats.logins).toBe(2);
    const pages = mock.requests
      .filter((r) => r.path === '/products')
      .map((r) => new URL(r.url).searchParams.get('page'));
    // The third page was refused once, then sent again with the new token.
    const rest = Array.from({ length: count - 3 }, (_, i) => String(i + 4));
    expect(pages).toEqual([null, '2', '3', '3', ...rest]);
  });

  it('goes on through a page whose answer was dropped, and stops with the error of one that keeps failing, items kept', async () => {
    const mock = createMockPartnerApi();
    const client = clientOf(mock);
    mock.dropNext({ times: 1, path: '/products' });
    const seen: string[] = [];
    const walk = async () => {
      for await (const product of client.products.list({ per_page: 1 })) {
        seen.push(product.hash);
        if (seen.length === 2) mock.failNext({ status: 503, times: 3, path: '/products' });
      }
    };
    const error = await walk().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(2);
    // The first page twice (its answer dropped), the second, the third three times (two retries).
    expect(mock.requests.filter((r) => r.path === '/products')).toHaveLength(6);
  });

  it("applies the list call's options to every page: its headers, its maxRetries, its signal", async () => {
    const mock = createMockPartnerApi();
    const client = clientOf(mock);
    const controller = new AbortController();
    const options = {
      headers: { 'X-Correlation-Id': 'walk-1' },
      maxRetries: 0,
      signal: controller.signal,
    };
    const seen: string[] = [];
    const walk = async () => {
      for await (const product of client.products.list({ per_page: 1 }, options)) {
        seen.push(product.hash);
        if (seen.length === 2) mock.failNext({ status: 503, times: 1, path: '/products' });
      }
    };
    expect(await walk().catch((e: unknown) => e)).toBeInstanceOf(InternalServerError);
    const pages = mock.requests.filter((r) => r.path === '/products');
    // No retry of the third page: the call's maxRetries of 0 holds for it.
    expect(pages).toHaveLength(3);
    expect(pages.map((r) => r.headers['x-correlation-id'])).toEqual(['walk-1', 'walk-1', 'walk-1']);

    mock.clearRequests();
    seen.length = 0;
    const aborting = async () => {
      for await (const product of client.products.list({ per_page: 1 }, options)) {
        seen.push(product.hash);
        controller.abort();
      }
    };
    expect(await aborting().catch((e: unknown) => e)).toBeInstanceOf(APIUserAbortError);
    expect(seen).toHaveLength(1);
    expect(mock.requests.filter((r) => r.path === '/products')).toHaveLength(1);
  });
  it('ends toArray with APIUserAbortError when the signal aborts while a later page is on its way, nothing more sent', async () => {
    const mock = createMockPartnerApi();
    const client = clientOf(mock);
    const controller = new AbortController();
    const first = await client.products.list({ per_page: 1 }, { signal: controller.signal });
    mock.failNext({ delayMs: 10_000, path: '/products' });
    const pagesBefore = () => mock.requests.filter((r) => r.path === '/products').length;
    const sent = pagesBefore();
    const collecting = first.toArray({ limit: 100 }).catch((e: unknown) => e);
    await waitFor(() => pagesBefore() === sent + 1, 'the second page to be asked for');
    controller.abort('operator stop');
    const error = await withTimeout(collecting, 2_000, 'the aborted toArray');
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe('operator stop');
    expect(pagesBefore()).toBe(sent + 1);
  });
});
