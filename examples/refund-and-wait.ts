/**
 * Refund a sale for a seller and wait for the outcome (`refunds.request`, `waitForCompletion`,
 * `requestAndWait`, `list`). A refund is asynchronous: the request is accepted (202) and its
 * status moves from `requested` to `completed` or `failed`; asking again while one is active
 * returns that refund (200) instead of creating a second.
 *
 * Runs against the embedded mock API; against a real service it needs `PARTNER_API_PUBLIC_TOKEN`
 * and `EXAMPLE_TRANSACTION_HASH`, the sale it refunds (see `support/setup.ts`).
 */

import { PollTimeoutError } from 'partner-sdk';
import { brl, connect, say, step } from './support/setup';

const example = await connect('Refund a sale and wait');
try {
  const { seller } = example;
  const transactionHash = example.input(
    'EXAMPLE_TRANSACTION_HASH',
    (mock) => mock.transactions.refundable[0]!,
  );

  step(`Request the refund of ${transactionHash}`);
  const requested = await seller.refunds.request(transactionHash, {
    reason: 'Customer asked within the refund period',
    cancel_subscription: true,
  });
  if (requested.kind === 'accepted') say('accepted (202): the refund is being processed');
  else say(`a refund was already active (200): ${requested.refund.status}`);

  step('Wait until it is final, with a line per status');
  try {
    const final = await seller.refunds.waitForCompletion(requested, {
      interval: 1_000,
      timeout: 5 * 60_000,
      onStatus: (status) => say(`… ${status}`),
    });
    say(
      final.status === 'completed' ? 'the refund completed' : `the refund ended: ${final.status}`,
    );
  } catch (error) {
    if (!(error instanceof PollTimeoutError)) throw error;
    say(`still ${String(error.lastStatus)} after ${error.waitedMs} ms: check again later`);
  }

  step('The refunds of the transaction');
  for (const refund of await seller.refunds.list(transactionHash)) {
    say(`${refund.hash}: ${refund.status}, ${brl(refund.amount)}, ${refund.created_at}`);
  }

  step('A transaction whose refund is already active: requestAndWait waits for that one');
  const active = example.optionalInput(
    'EXAMPLE_ACTIVE_REFUND_TRANSACTION_HASH',
    (mock) => mock.transactions.withActiveRefund,
  );
  if (active === undefined) {
    say('skipped: set EXAMPLE_ACTIVE_REFUND_TRANSACTION_HASH to run it');
  } else {
    const final = await seller.refunds.requestAndWait(active, undefined, {
      onStatus: (status) => say(`… ${status}`),
    });
    say(`refund of ${active}: ${final.status}`);
  }
} finally {
  await example.close();
}
