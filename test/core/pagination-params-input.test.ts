/**
 * A list's params given wrongly from plain JavaScript: anything but an object of documented keys is
 * refused before the first page is asked for; a class instance or a frozen object is read as the
 * plain object it stands for.
 */

import { describe, expect, it } from 'vitest';
import { hostileService, hostileValues, outcomeOf } from '../helpers/hostile-inputs';

const start = hostileService();

describe('params from plain JavaScript', () => {
  it.each(hostileValues())('list params as %s are refused, nothing sent', async (_, params) => {
    const { seller, sent } = await start();
    for (const list of [
      () => seller.products.list(params as never),
      () => seller.anticipations.list(params as never),
    ]) {
      const outcome = await outcomeOf(list);
      expect(outcome.kind).toBe('refused');
    }
    expect(sent()).toEqual([]);
  });

  it('a class instance or a frozen object with documented keys is read as plain params', async () => {
    class Listing {
      page = 2;
    }
    const { seller, sent } = await start();
    await outcomeOf(() => seller.products.list(new Listing()));
    await outcomeOf(() => seller.anticipations.list(Object.freeze({ per_page: 5 })));
    expect(sent()).toEqual(['GET /products?page=2 ', 'GET /financial/anticipation?per_page=5 ']);
  });
});
