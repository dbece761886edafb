/**
 * Walk the product catalogue (`products.list`, `products.retrieve`): one page at a time, or every
 * product with `for await`, the SDK fetching each page when the walk reaches it.
 *
 * Runs against the embedded mock API, or a real service (see `support/setup.ts`); read-only.
 */

import { connect, say, step } from './support/setup';

const example = await connect('Paginate products');
try {
  const { client } = example;

  step('The first page, then the next one');
  const first = await client.products.list({ per_page: 50 });
  const { total, last_page } = first.pagination;
  say(`page 1 of ${last_page}: ${first.data.length} of ${total} products`);
  if (first.hasNextPage()) {
    const second = await first.getNextPage();
    say(`page ${second.pagination.current_page}: starts with ${second.data[0]?.name}`);
  }

  step('Every product, every page (for await)');
  const byType = new Map<string, number>();
  let count = 0;
  for await (const product of client.products.list({ per_page: 50 })) {
    count += 1;
    const type = product.type ?? 'unknown';
    byType.set(type, (byType.get(type) ?? 0) + 1);
  }
  say(`walked ${count} products`);
  for (const [type, n] of byType) say(`  ${type}: ${n}`);

  step('One product by its hash');
  const hash = first.data[0]?.hash;
  if (hash === undefined) {
    say('skipped: the catalogue is empty');
  } else {
    const product = await client.products.retrieve(hash);
    say(
      `${product.hash}: ${product.name}, ${product.status}, refund deadline ${product.refund_deadline} days`,
    );
  }
} finally {
  await example.close();
}
