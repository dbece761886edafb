/**
 * What keeps a walk over a page-numbered list honest while the list changes under it: a page other
 * than the one asked ends the walk, and an item pushed onto the next page by an item added
 * meanwhile is passed once.
 */

import { ResponseValidationError } from '../errors';

/** The least a guard reads of a page. */
interface PageLike<T> {
  data: T[];
  pagination: { current_page: number };
}

/**
 * The items of `pages` in order, less any whose `key` was on the page just before: the service
 * pages by number, so an item added ahead of the walk between two pages pushes the last item of the
 * one into the next. Only the keys of one page are kept, so memory stays that of a page.
 */
export async function* itemsOnce<T>(
  pages: AsyncIterable<PageLike<T>>,
  key: ((item: T) => unknown) | undefined,
): AsyncGenerator<T, void, undefined> {
  let before = new Set<unknown>();
  for await (const { data } of pages) {
    const keys = new Set<unknown>();
    for (const item of data) {
      const id = key?.(item);
      if (id == null) {
        yield item;
        continue;
      }
      keys.add(id);
      if (!before.has(id)) yield item;
    }
    before = keys;
  }
}

/**
 * The error ending a walk whose page is not the one asked: one not past the page before would make
 * the walk endless, one further on would skip pages unseen (a response without a URL keeps its
 * empty one).
 */
export function notAsked(
  page: number,
  after: number,
  content: PageLike<unknown>,
  response: Response,
): ResponseValidationError {
  const path = URL.canParse(response.url) ? new URL(response.url).pathname : response.url;
  const got = content.pagination.current_page;
  const [code, why] =
    got > after
      ? ['page_not_asked', 'pages would be skipped']
      : ['page_not_advancing', 'the page does not advance'];
  return new ResponseValidationError({ method: 'GET', path }, response.status, content, [
    {
      path: ['pagination', 'current_page'],
      message: `asked for page ${page} after page ${after}, got page ${got}: the walk stops, as ${why}`,
      code,
    },
  ]);
}

/**
 * An item's key for `itemsOnce`: its `hash`, or where the service sent none (a past anticipation
 * may have none), its whole content as sent, which the same record repeats on the next page.
 */
export function hashOrContent(item: { hash?: unknown }): unknown {
  return item.hash ?? JSON.stringify(item);
}
