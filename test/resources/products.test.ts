import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ListProductsParams,
  NotFoundError,
  Page,
  type PagePromise,
  type Pagination,
  type Product,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/index';
import { wireProduct } from '../helpers/kit-fixtures';
import {
  BASE_URL,
  CLIENT_TOKEN,
  makeClient,
  onlyRequest,
  PUBLIC_TOKEN,
  rejectionOf,
  reply,
  replyToAnything,
  requests,
  server,
  useMockApi,
} from '../helpers/msw-api';

useMockApi();

/** Serves `total` products, paged by the query's `page` (default 1) and `per_page` (default 50). */
function serveProducts(total: number, lastPage?: number) {
  server.use(
    http.get(`${BASE_URL}/products`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      const page = Number(query.get('page') ?? 1);
      const perPage = Number(query.get('per_page') ?? 50);
      const from = (page - 1) * perPage;
      const data = Array.from({ length: Math.max(0, Math.min(perPage, total - from)) }, (_, i) =>
        wireProduct(`prd_${from + i + 1}`),
      );
      return HttpResponse.json({
        data,
        meta: {
          current_page: page,
          last_page: lastPage ?? Math.ceil(total / perPage),
          per_page: perPage,
          total,
        },
      });
    }),
  );
}

describe('products.retrieve', () => {
  it('sends GET /products/{hash} with the client token and returns the typed product', async () => {
    reply('get', '/products/prd_k2j4', wireProduct());
    const product = await makeClient().products.retrieve('prd_k2j4');

    const sent = onlyRequest();
    expect(sent.method).toBe('GET');
    expect(sent.path).toBe('/products/prd_k2j4');
    expect(sent.query).toEqual({});
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(sent.headers.get('authorization')).toBeNull();
    expect(await sent.text()).toBe('');
    expect(product).toEqual(wireProduct());
    expect(product.metadata?.links?.sales_page_url).toBe(
      wireProduct().metadata.links.sales_page_url,
    );
    expectTypeOf(product).toEqualTypeOf<Product>();
  });

  it('adds the seller bearer token on a seller client', async () => {
    reply('get', '/products/prd_k2j4', wireProduct());
    await makeClient().forUser(PUBLIC_TOKEN).products.retrieve('prd_k2j4');
    const sent = onlyRequest();
    expect(sent.headers.get('authorization')).toBe(`Bearer ${PUBLIC_TOKEN}`);
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
  });

  it('percent-encodes the product hash', async () => {
    replyToAnything(wireProduct());
    await makeClient().products.retrieve('a/b c?#%é');
    expect(onlyRequest().path).toBe('/products/a%2Fb%20c%3F%23%25%C3%A9');
  });

  it.each(['', ' ', '.', '..'])('refuses the hash %j before sending', async (hash) => {
    const error = await rejectionOf(makeClient().products.retrieve(hash));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['productHash']);
    expect(requests()).toHaveLength(0);
  });

  it('turns a 404 into NotFoundError', async () => {
    reply('get', '/products/missing', { message: 'Not found' }, { status: 404 });
    expect(await rejectionOf(makeClient().products.retrieve('missing'))).toBeInstanceOf(
      NotFoundError,
    );
  });

  it('reads unknown statuses and types, null fields and extra keys', async () => {
    const odd = {
      ...wireProduct(),
      status: 'archived',
      type: 'podcast',
      affiliate_commission_type: 'split',
      description: null,
      cover_picture: null,
      metadata: { links: null, seo: { title: 'x' } },
      producer: { code: 'usr_1' },
    };
    reply('get', '/products/prd_k2j4', odd);
    expect(await makeClient().products.retrieve('prd_k2j4')).toEqual(odd);
  });

  it('throws ResponseValidationError naming a wrong-typed field, with the raw body', async () => {
    const body = { ...wireProduct(), is_active: 'yes' };
    reply('get', '/products/prd_k2j4', body);
    const error = (await rejectionOf(
      makeClient().products.retrieve('prd_k2j4'),
    )) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i) => i.path)).toEqual([['is_active']]);
    expect(error.body).toEqual(body);
  });

  it('gives status and headers through .withResponse()', async () => {
    reply('get', '/products/prd_k2j4', wireProduct(), { headers: { 'x-request-id': 'req-9' } });
    const { data, response } = await makeClient().products.retrieve('prd_k2j4').withResponse();
    expect(data.hash).toBe(wireProduct().hash);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req-9');
  });
});

describe('products.list', () => {
  it('sends GET /products with only the query given and normalises meta into pagination', async () => {
    serveProducts(120);
    const page = await makeClient().products.list({ per_page: 50 });

    const sent = onlyRequest();
    expect(sent.method).toBe('GET');
    expect(sent.path).toBe('/products');
    expect(sent.query).toEqual({ per_page: '50' });
    expect(sent.headers.get('x-api-client-token')).toBe(CLIENT_TOKEN);
    expect(page).toBeInstanceOf(Page);
    expect(page.data).toHaveLength(50);
    expect(page.data[0]).toEqual(wireProduct('prd_1'));
    expect(page.pagination).toEqual({ current_page: 1, last_page: 3, per_page: 50, total: 120 });
    expect(page.hasNextPage()).toBe(true);
  });

  it('sends no query at all when given no parameters (the service defaults apply)', async () => {
    serveProducts(3);
    await makeClient().products.list();
    expect(onlyRequest().query).toEqual({});
  });

  it('fetches the next page with getNextPage()', async () => {
    serveProducts(120);
    const first = await makeClient().products.list({ per_page: 50 });
    const second = await first.getNextPage();
    expect(second.pagination.current_page).toBe(2);
    expect(second.data[0]?.hash).toBe('prd_51');
    expect(requests().map((r) => r.query)).toEqual([
      { per_page: '50' },
      { per_page: '50', page: '2' },
    ]);
  });

  it('yields each of 120 products once in three requests with for await', async () => {
    serveProducts(120);
    const hashes: string[] = [];
    for await (const product of makeClient().products.list({ per_page: 50 })) {
      hashes.push(product.hash);
    }
    expect(hashes).toEqual(Array.from({ length: 120 }, (_, i) => `prd_${i + 1}`));
    expect(requests()).toHaveLength(3);
    expect(requests().map((r) => r.query.page)).toEqual([undefined, '2', '3']);
  });

  it('makes no second request when the loop breaks after the first page', async () => {
    serveProducts(120);
    let seen = 0;
    for await (const _product of makeClient().products.list({ per_page: 50 })) {
      seen += 1;
      if (seen === 50) break;
    }
    expect(requests()).toHaveLength(1);
  });

  it('stops at last_page even when more products seem to exist', async () => {
    serveProducts(120, 2);
    let count = 0;
    for await (const _product of makeClient().products.list({ per_page: 50 })) count += 1;
    expect(count).toBe(100);
    expect(requests()).toHaveLength(2);
  });

  it('stops at an empty page, whatever the counters say', async () => {
    // The counters claim 10 pages; the items run out after the second.
    serveProducts(2, 10);
    const seen: string[] = [];
    for await (const product of makeClient().products.list({ per_page: 1 }))
      seen.push(product.hash);
    expect(seen).toEqual(['prd_1', 'prd_2']);
    expect(requests().map((r) => r.query.page)).toEqual([undefined, '2', '3']);
    const empty = await makeClient().products.list({ page: 3, per_page: 1 });
    expect(empty.pagination.last_page).toBe(10);
    expect(empty.hasNextPage()).toBe(false);
  });

  it('stops at page 999, the documented bound, whatever last_page says', async () => {
    serveProducts(50_000, 5_000);
    const page = await makeClient().products.list({ page: 998, per_page: 1 });
    expect(page.hasNextPage()).toBe(true);
    const last = await page.getNextPage();
    expect(last.pagination.current_page).toBe(999);
    expect(last.hasNextPage()).toBe(false);
    expect(() => last.getNextPage()).toThrow(RangeError);

    let count = 0;
    for await (const _product of makeClient().products.list({ page: 998, per_page: 1 })) count++;
    expect(count).toBe(2);
    expect(requests().map((r) => r.query.page)).toEqual(['998', '999', '998', '999']);
  });

  it('reads a list without meta as one page, and names a wrong-typed item field', async () => {
    reply('get', '/products', { data: [wireProduct()], meta: null, links: { next: null } });
    const page = await makeClient().products.list();
    expect(page.pagination).toEqual({ current_page: 1, last_page: 1, per_page: 1, total: 1 });
    expect(page.hasNextPage()).toBe(false);

    reply('get', '/products', { data: [{ ...wireProduct(), category_id: '12' }] });
    const error = (await rejectionOf(makeClient().products.list())) as ResponseValidationError;
    expect(error.issues.map((i) => i.path)).toEqual([['data', 0, 'category_id']]);
  });

  it('gives status and headers through .withResponse()', async () => {
    serveProducts(3);
    const { data, response } = await makeClient().products.list().withResponse();
    expect(response.status).toBe(200);
    expect(data.data).toHaveLength(3);
  });

  it.each([
    ['page', 1],
    ['page', 999],
    ['per_page', 1],
    ['per_page', 50],
  ] as const)('sends %s = %i (inside the limit)', async (field, value) => {
    serveProducts(3);
    await makeClient().products.list({ [field]: value });
    expect(onlyRequest().query[field]).toBe(String(value));
  });

  it.each([
    ['page', 0],
    ['page', 1000],
    ['page', 1.5],
    ['per_page', 0],
    ['per_page', 51],
  ] as const)('refuses %s = %d before sending', async (field, value) => {
    const error = await rejectionOf(makeClient().products.list({ [field]: value }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual([[field]]);
    expect(requests()).toHaveLength(0);
  });

  it('refuses an out-of-range page even from for await, before sending', async () => {
    const error = await rejectionOf(
      (async () => {
        for await (const _p of makeClient().products.list({ per_page: 51 })) break;
      })(),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(requests()).toHaveLength(0);
  });
});

describe('products types', () => {
  it('exports the parameter and result types from the package entry', () => {
    const client = makeClient();
    expectTypeOf(client.products.retrieve).parameter(0).toEqualTypeOf<string>();
    expectTypeOf(client.products.list).parameter(0).toEqualTypeOf<ListProductsParams | undefined>();
    expectTypeOf(client.products.list).returns.toEqualTypeOf<PagePromise<Product>>();
    expectTypeOf<Awaited<PagePromise<Product>>['pagination']>().toEqualTypeOf<Pagination>();
    expectTypeOf<Product['hash']>().toEqualTypeOf<string>();
    expectTypeOf<ListProductsParams>().toMatchTypeOf<{ page?: number; per_page?: number }>();
  });
});
