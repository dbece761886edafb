/**
 * Page-numbered lists. Both list endpoints page by `page`/`per_page` but report it differently
 * (products in `meta`, anticipations in `data.pagination`); resources normalise both into one
 * {@link Pagination} and this module does the rest: `await` for a page, `for await` for every item.
 */

import type { APIPromise } from '../transport/api-promise';
import { itemsOnce, notAsked } from './guards';

/** Where a page stands, the same for every list whichever way the service reported it. */
export interface Pagination {
  /** Number of this page, from 1. */
  current_page: number;
  /** Number of the last page. */
  last_page: number;
  /** Items per page. */
  per_page: number;
  /** Items in the whole list. */
  total: number;
}

/** One page as a resource returns it: its items and where it stands. */
export interface PageContent<T> {
  /** The items of this page. */
  data: T[];
  /** Where this page sits in the list, normalised from either wire form. */
  pagination: Pagination;
}

/**
 * One page in the common shape, from the counters the service sent (any may be missing or `null`):
 * a missing `current_page`/`last_page` means this page is the last one asked for, so a walk ends.
 */
export function pageContent<T>(
  data: T[],
  sent: Partial<Record<keyof Pagination, number | null>> | null | undefined,
  page: number,
): PageContent<T> {
  return {
    data,
    pagination: {
      current_page: sent?.current_page ?? page,
      last_page: sent?.last_page ?? page,
      per_page: sent?.per_page ?? data.length,
      total: sent?.total ?? data.length,
    },
  };
}

/** Options of `toArray`. */
export interface ToArrayOptions {
  /** The most items to collect: a positive integer. Fetching stops once it is reached. */
  limit: number;
}

/** Loads one page by number; the resource binds the rest of the parameters. */
export type PageLoader<T> = (page: number) => APIPromise<PageContent<T>>;

/** What a list's pages share: how to load one, the endpoint's page bound, each item's key. */
export interface PageWalk<T> {
  load: PageLoader<T>;
  maxPage: number;
  /** The item's identity (its hash): an item walk passes no item of the page before again. */
  key?: ((item: T) => unknown) | undefined;
}

/**
 * One page of a list, with the means to get the next.
 *
 * @example
 * ```ts
 * let page = await client.products.list({ per_page: 50 });
 * while (true) {
 *   for (const product of page.data) console.log(product.name);
 *   if (!page.hasNextPage()) break;
 *   page = await page.getNextPage();
 * }
 * ```
 */
export class Page<T> implements AsyncIterable<T> {
  /** The items of this page. */
  readonly data: T[];
  /** Where this page stands: `current_page`, `last_page`, `per_page`, `total`. */
  readonly pagination: Pagination;
  readonly #walk: PageWalk<T>;

  /** @internal Pages are built by list methods. */
  constructor(content: PageContent<T>, walk: PageWalk<T>) {
    this.data = content.data;
    this.pagination = content.pagination;
    this.#walk = walk;
  }

  /**
   * Whether a further page exists (stops at `last_page`, at the endpoint's documented page bound,
   * and at an empty page, whatever the counters say).
   *
   * @example
   * ```ts
   * const page = await seller.anticipations.list();
   * if (page.hasNextPage()) console.log('more to come');
   * ```
   */
  hasNextPage(): boolean {
    const { current_page, last_page } = this.pagination;
    return this.data.length > 0 && current_page < Math.min(last_page, this.#walk.maxPage);
  }

  /**
   * Fetches the next page; throws a `RangeError` when there is none (check `hasNextPage()` first).
   * A service that answers a `current_page` other than the one asked fails it with
   * `ResponseValidationError`: one not past this page would make a walk endless, one further on
   * would skip pages unseen.
   *
   * @example
   * ```ts
   * const first = await client.products.list();
   * const second = first.hasNextPage() ? await first.getNextPage() : undefined;
   * ```
   */
  getNextPage(): PagePromise<T> {
    if (!this.hasNextPage()) {
      throw new RangeError(
        `There is no page after page ${this.pagination.current_page} of ${this.pagination.last_page}.`,
      );
    }
    const after = this.pagination.current_page;
    return pagePromise(this.#walk, after + 1, after);
  }

  /**
   * This page and every page after it, each fetched when the loop asks for it (`break` stops
   * fetching). For work page by page: a batch write per page, progress per page.
   *
   * @example
   * ```ts
   * const first = await client.products.list({ per_page: 50 });
   * for await (const page of first.iterPages()) {
   *   console.log(`page ${page.pagination.current_page} of ${page.pagination.last_page}`);
   * }
   * ```
   */
  iterPages(): AsyncGenerator<Page<T>, void, undefined> {
    return pagesFrom(this);
  }

  /**
   * The items of this page and of the pages after it, collected into an array of at most `limit`
   * items: fetching stops as soon as `limit` is reached (or the list ends). `limit` is required, so
   * a list that grows cannot silently fill memory (stripe-node's `autoPagingToArray` asks the same).
   *
   * @param options `limit`: the most items to collect, a positive integer.
   * @throws {RangeError} `limit` is not a positive integer (nothing is fetched).
   * @example
   * ```ts
   * const first = await client.products.list({ per_page: 50 });
   * const products = await first.toArray({ limit: 500 });
   * ```
   */
  async toArray(options: ToArrayOptions): Promise<T[]> {
    const limit = options?.limit;
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new RangeError(`toArray: \`limit\` must be a positive integer (got ${String(limit)}).`);
    }
    const items: T[] = [];
    for await (const item of this) {
      items.push(item);
      if (items.length === limit) break;
    }
    return items;
  }

  /**
   * Every item of this page and of the pages after it, fetched one page at a time as the loop asks;
   * an item of the page before, pushed onto this one by an item added to the list meanwhile, is not
   * passed again.
   *
   * @example
   * ```ts
   * const page = await client.products.list();
   * for await (const product of page) console.log(product.hash);
   * ```
   */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return itemsOnce(pagesFrom(this), this.#walk.key);
  }
}

/**
 * The pages from `page` on, each fetched when the loop asks. Not a method of `Page`, and the
 * parameter reassigned, so that the walk holds no page it has handed on, the first one included.
 */
async function* pagesFrom<T>(
  page: Page<T> | PromiseLike<Page<T>>,
): AsyncGenerator<Page<T>, void, undefined> {
  for (;;) {
    page = await page;
    yield page;
    if (!page.hasNextPage()) return;
    page = page.getNextPage();
  }
}

/**
 * What list methods return: `await` it for the first page, or `for await` over it for every item
 * of every page (later pages are fetched only when the loop reaches them; `break` stops fetching).
 *
 * @example
 * ```ts
 * const first = await client.products.list({ per_page: 50 });
 * console.log(first.pagination.total);
 *
 * for await (const product of client.products.list({ per_page: 50 })) {
 *   console.log(product.name);
 * }
 * ```
 */
export interface PagePromise<T> extends APIPromise<Page<T>>, AsyncIterable<T> {
  /**
   * Every item of every page from this one on; an item of the page before, pushed onto the next by
   * an item added to the list meanwhile, is not passed again.
   *
   * @example
   * ```ts
   * for await (const anticipation of seller.anticipations.list({ per_page: 100 })) {
   *   console.log(anticipation.amount);
   * }
   * ```
   */
  [Symbol.asyncIterator](): AsyncIterator<T>;

  /**
   * Every page from this one on, each fetched when the loop asks for it (see `Page.iterPages`).
   *
   * @example
   * ```ts
   * for await (const page of client.products.list({ per_page: 50 }).iterPages()) {
   *   await saveBatch(page.data);
   * }
   * ```
   */
  iterPages(): AsyncGenerator<Page<T>, void, undefined>;

  /**
   * Every item from this page on, in an array of at most `limit` items (see `Page.toArray`). The
   * list call has sent the first page's request: a bad `limit` is refused when that page arrives.
   *
   * @example
   * ```ts
   * const products = await client.products.list({ per_page: 50 }).toArray({ limit: 500 });
   * ```
   */
  toArray(options: ToArrayOptions): Promise<T[]>;
}

async function toArrayOf<T>(this: Promise<Page<T>>, options: ToArrayOptions): Promise<T[]> {
  return (await this).toArray(options);
}

/**
 * Builds the `PagePromise` of page `page` of `walk`; `after`, the page before it when walking on,
 * where the page that comes must be the one asked.
 */
export function pagePromise<T>(walk: PageWalk<T>, page: number, after?: number): PagePromise<T> {
  const first = walk.load(page)._map((content, response) => {
    if (after !== undefined && content.pagination.current_page !== page) {
      throw notAsked(page, after, content, response);
    }
    return new Page(content, walk);
  });
  // The walks take `first` as their start and let go of it once it has arrived.
  return Object.assign(first, {
    [Symbol.asyncIterator]: () => itemsOnce(pagesFrom(first), walk.key),
    iterPages: () => pagesFrom(first),
    toArray: toArrayOf<T>,
  });
}

/**
 * The `PagePromise` of a list paged by `page` in its params, each page's sent by `loadPage`: the
 * first without `page` unless the caller gave one (the service's default applies). `shape` gives
 * the endpoint's page bound and each item's key.
 */
export function listPages<P extends { page?: number | undefined }, T>(
  params: P,
  shape: Omit<PageWalk<T>, 'load'>,
  loadPage: (paramsOfPage: P, page: number) => APIPromise<PageContent<T>>,
): PagePromise<T> {
  // Params that are no plain object (null, a number, an array, a Date) go to the check as given,
  // which refuses them by name.
  if (Object.prototype.toString.call(params) !== '[object Object]') {
    return pagePromise({ ...shape, load: (page) => loadPage(params, page) }, 1);
  }
  const first = params.page ?? 1;
  const load = (page: number) =>
    loadPage({ ...params, page: page === first ? params.page : page }, page);
  return pagePromise({ ...shape, load }, first);
}
