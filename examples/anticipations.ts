/**
 * Anticipate receivables (`anticipations.confirm`, `anticipations.list`): confirm a calculated
 * anticipation in the scenario chosen, then read the history. A confirmation moves money, so the
 * SDK never repeats one the service may have acted on.
 *
 * Runs against the embedded mock API; against a real service it needs `PARTNER_API_PUBLIC_TOKEN`,
 * and confirms only with `EXAMPLE_ANTICIPATION_HASH` set (see `support/setup.ts`).
 */

import { parseTimestamp } from 'partner-sdk';
import { brl, connect, say, step } from './support/setup';

const example = await connect('Anticipations');
try {
  const { seller } = example;

  step('Confirm a calculated anticipation (scenario "above")');
  const anticipationHash = example.optionalInput(
    'EXAMPLE_ANTICIPATION_HASH',
    (mock) => mock.anticipations.confirmable[0]!,
  );
  if (anticipationHash === undefined) {
    say('skipped: set EXAMPLE_ANTICIPATION_HASH to confirm one');
  } else {
    const confirmation = await seller.anticipations.confirm(anticipationHash, {
      scenario: 'above',
    });
    say(`${anticipationHash}: ${confirmation.status}, ${brl(confirmation.amount)}`);
  }

  step('The latest anticipations (first page)');
  const page = await seller.anticipations.list({ per_page: 5 });
  say(`${page.pagination.total} anticipations; the latest ${page.data.length}:`);
  for (const item of page.data) {
    const when = item.created_at ? parseTimestamp(item.created_at).toISOString().slice(0, 10) : '?';
    say(
      `  ${when}  ${brl(item.amount)} - fee ${brl(item.fee)} = ${brl(item.net_value)} (${item.status})`,
    );
  }

  step('Totals over every page (for await)');
  let count = 0;
  let net = 0;
  for await (const item of seller.anticipations.list({ per_page: 100 })) {
    count += 1;
    net += item.net_value ?? 0;
  }
  say(`${count} anticipations, ${brl(net)} net`);
} finally {
  await example.close();
}
