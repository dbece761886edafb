/**
 * The whole SDK in one run (`npm run example`): log in and list products, refund a sale for a
 * seller and wait until the refund is final, export the account statement and wait for the file,
 * then receive a webhook.
 *
 * Runs against the embedded mock API; see `support/setup.ts` to run it against a real service
 * (the refund step then needs `EXAMPLE_TRANSACTION_HASH`, and is skipped without it).
 */

import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliver, subscriptionEndedEvent } from 'partner-sdk/testing';
import { createWebhookHandler } from 'partner-sdk/webhooks';
import { connect, say, step } from './support/setup';

const example = await connect('partner-sdk quickstart', { trace: true });
try {
  const { client } = example;

  step('Log in and list products (the first call logs in at POST /auth)');
  const page = await client.products.list({ per_page: 5 });
  const { total, last_page } = page.pagination;
  say(`${total} products on ${last_page} pages of 5; the first page:`);
  for (const product of page.data) say(`  ${product.hash}  ${product.name} (${product.type})`);

  step('Refund a sale for a seller, and wait until the refund is final');
  const transactionHash = example.optionalInput(
    'EXAMPLE_TRANSACTION_HASH',
    (mock) => mock.transactions.refundable[0]!,
  );
  if (transactionHash === undefined) {
    say('skipped: set EXAMPLE_TRANSACTION_HASH to a transaction to refund');
  } else {
    const seller = example.seller;
    const requested = await seller.refunds.request(transactionHash, { reason: 'Customer asked' });
    say(
      requested.kind === 'accepted'
        ? `refund of ${transactionHash} accepted (202), processed asynchronously`
        : `a refund of ${transactionHash} was already active: ${requested.refund.status}`,
    );
    const refund = await seller.refunds.waitForCompletion(requested, {
      onStatus: (status) => say(`… refund is ${status}`),
    });
    say(`refund final: ${refund.status}`);
  }

  step('Export last month’s account statement, and wait for the file');
  const now = new Date();
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const exported = await example.seller.statements.export({
    format: 'csv',
    filter: {
      betweenDates: {
        start: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))),
        end: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0))),
      },
    },
  });
  say(`export ${exported.hash} requested: ${exported.status}`);
  const finished = await example.seller.statements.waitForExport(exported, {
    onStatus: (status) => say(`… export is ${status}`),
  });
  const file = await example.seller.statements.download(finished);
  const [header, ...entries] = (await file.text()).trimEnd().split(/\r?\n/);
  say(`downloaded ${entries.length} entries, columns: ${header}`);

  step('Receive a webhook: a handler on node:http, a delivery from the testing kit');
  const webhookToken = crypto.randomUUID();
  const handler = createWebhookHandler({
    on: {
      subscription_ended: (event) =>
        say(
          `handled subscription_ended: ${event.payload.subscription_code} (${event.payload.end_reason})`,
        ),
    },
    dedupe: true,
    // Deliveries carry no signature (spec §6): a secret in the registered URL proves their origin.
    verify: ({ url }) => url.searchParams.get('token') === webhookToken,
  });
  const receiver = createServer(handler.node).listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const { port } = receiver.address() as AddressInfo;
  const status = await deliver(
    `http://127.0.0.1:${port}/webhooks?token=${webhookToken}`,
    subscriptionEndedEvent(),
  );
  say(`the receiver answered ${status}`);
  receiver.close();
  receiver.closeAllConnections();

  console.log('\nDone: every step ran.');
} finally {
  await example.close();
}
