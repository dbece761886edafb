/**
 * A partner's receiver that refunds the transaction of a `subscription_ended` and waits for the
 * refund, as the webhooks guide ("Calling the API from a handler") writes it: a handler that
 * outlived `handlerTimeoutMs` is answered 500 and delivered again, possibly after the refund its
 * first run requested has completed, and spec §3 lets a request then make a second refund (only a
 * `requested` or `success` refund stops one). Through the packages' public entries, over loopback.
 */

import http from 'node:http';
import { PartnerClient, type SellerClient } from 'partner-sdk';
import { createMockPartnerApi, deliver, subscriptionEndedEvent } from 'partner-sdk/testing';
import {
  createWebhookHandler,
  type SubscriptionEndedEvent,
  secretVerifier,
  type WebhookHandlerContext,
} from 'partner-sdk/webhooks';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../helpers/http-servers';

const { serve } = closedAfterEach();
const SECRET = 'whsec_partner_route';
// Each poll of the kit's status moves a refund on; the waits below poll every 20 ms.
const QUICK_POLLS = { interval: 20, maxInterval: 20 };

type Refunder = (
  seller: SellerClient,
  event: SubscriptionEndedEvent,
  signal: AbortSignal,
) => Promise<unknown>;

/** The guide's handler body: look for the refund a first run made before requesting one. */
const guideRefunder: Refunder = async (seller, event, signal) => {
  const transaction = event.payload.commissions?.transaction_hash;
  if (!transaction) return;
  const since = event.created_at ?? new Date(0);
  const made = await seller.refunds.findCreatedSince(transaction, since, { signal });
  return made
    ? seller.refunds.waitForCompletion(made, { signal, ...QUICK_POLLS })
    : seller.refunds.requestAndWait(
        transaction,
        { reason: 'Subscription ended' },
        { signal, ...QUICK_POLLS },
      );
};

/** Requests and waits at once, as the waiting guide alone would have it. */
const blindRefunder: Refunder = async (seller, event, signal) => {
  const transaction = event.payload.commissions?.transaction_hash;
  if (!transaction) return;
  return seller.refunds.requestAndWait(transaction, {}, { signal, ...QUICK_POLLS });
};

/** A refund slower than the receiver's handlerTimeoutMs, delivered again once it completed. */
async function redeliveredAfterCompletion(refunder: Refunder) {
  const mock = createMockPartnerApi({ refundPolls: 60 });
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...mock.credentials,
  });
  const seller = client.forUser(mock.sellers.person.publicToken);
  const transaction = mock.addTransaction(4990, { seller: mock.sellers.person.code });
  const handler = createWebhookHandler({
    on: {
      subscription_ended: (event, context: WebhookHandlerContext) =>
        refunder(seller, event, context.signal),
    },
    dedupe: true,
    handlerTimeoutMs: 500,
    logLevel: 'off',
    verify: secretVerifier({ secret: SECRET, query: 'token' }),
  });
  const receiver = await serve(http.createServer(handler.node));
  const url = `${receiver.url}/webhooks/partner?token=${SECRET}`;
  const event = subscriptionEndedEvent(
    { commissions: { transaction_hash: transaction, paid_amount: 4990, items: [] } },
    { created_at: new Date().toISOString() },
  );
  const first = await deliver(url, event);
  // Meanwhile the service finishes the refund the first run requested.
  await seller.refunds.waitForCompletion(transaction, { interval: 1, maxInterval: 1 });
  const again = await deliver(url, event);
  return { first, again, refunds: await seller.refunds.list(transaction) };
}

describe('a handler that refunds and waits, delivered again after it timed out', () => {
  it('requesting blindly on the redelivery makes a second refund of the transaction', async () => {
    const { first, refunds } = await redeliveredAfterCompletion(blindRefunder);
    expect(first).toBe(500);
    expect(refunds.map((refund) => refund.status)).toEqual(['completed', 'requested']);
  });

  it('the guide handler finds the completed refund and makes no second one', async () => {
    const { first, again, refunds } = await redeliveredAfterCompletion(guideRefunder);
    expect(first).toBe(500);
    expect(again).toBe(200);
    expect(refunds.map((refund) => refund.status)).toEqual(['completed']);
  });
});
