/**
 * Receive the service's webhooks (`partner-sdk/webhooks`) on a plain node:http server. The handler
 * answers 200 only once your code handled the event (so the service redelivers anything that
 * failed), skips redeliveries with `dedupe`, refuses a delivery without the agreed secret with 401
 * and a malformed body with 400.
 *
 * By default it starts on a free loopback port and the testing kit delivers events to it, the way
 * the service does. With `WEBHOOK_PORT` set it serves real deliveries on that port instead, until
 * Ctrl-C (expose it and register its URL, with `?token=` and the value of `WEBHOOK_TOKEN`, with the
 * platform).
 */

import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  bankAccountDeletedEvent,
  bankAccountUpdatedEvent,
  deliver,
  subscriptionEndedEvent,
  webhookEvent,
} from 'partner-sdk/testing';
import { createWebhookHandler, secretVerifier } from 'partner-sdk/webhooks';
import { say, step } from './support/setup';

// The spec shows no signature on deliveries: a secret in the registered URL is what proves one
// came from the platform (without `verify`, anyone who finds the URL can deliver events).
const token = process.env.WEBHOOK_TOKEN ?? crypto.randomUUID();

const handler = createWebhookHandler({
  on: {
    subscription_ended: async (event) => {
      const { subscription_code, end_reason, total_charges } = event.payload;
      say(`subscription ${subscription_code} ended (${end_reason}) after ${total_charges} charges`);
    },
    bank_account_updated: async (event) => {
      const { code, status, reason } = event.payload;
      say(`bank account ${code} is now ${status}${reason ? `: ${reason}` : ''}`);
    },
    bank_account_deleted: async (event) => say(`bank account ${event.payload.code} was deleted`),
  },
  // Events with no handler above (new kinds included) arrive here instead of being lost.
  onUnknown: async (event) => say(`unhandled event ${event.event}, acknowledged`),
  dedupe: true,
  verify: secretVerifier({ secret: token, query: 'token' }),
  // The receiver's warnings (a delivery refused as not an event, say) among this example's lines;
  // pino, winston or console itself fit here as they are.
  logger: { ...console, warn: (line: string) => say(`the receiver warns: ${line}`) },
});

const port = Number(process.env.WEBHOOK_PORT ?? 0);
const server = createServer(handler.node).listen(port, port ? '0.0.0.0' : '127.0.0.1');
await once(server, 'listening');
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/partner`;
const url = `${base}?token=${encodeURIComponent(token)}`;
console.log(`Webhook receiver\nlistening at ${base}?token=…`);

if (port) {
  console.log('waiting for deliveries; Ctrl-C to stop');
  await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
} else {
  const send = async (what: string, event: unknown) =>
    say(`${what} → the receiver answered ${await deliver(url, event)}`);

  step('The three documented events');
  await send(
    'subscription_ended',
    subscriptionEndedEvent({ end_reason: 'delinquency', total_charges: 3 }),
  );
  await send(
    'bank_account_updated',
    bankAccountUpdatedEvent({ status: 'reproved', reason: 'Holder mismatch' }),
  );
  await send('bank_account_deleted', bankAccountDeletedEvent({ code: 'bnk_3Rt8Vw1K' }));

  step('An event this receiver has no handler for');
  await send('user_updated', webhookEvent('user_updated', { code: 'usr_8f3k2m9q' }));

  step('A redelivery of an event already handled: acknowledged, not handled twice');
  const event = subscriptionEndedEvent();
  await send('first delivery', event);
  await send('redelivery', event);

  step('A delivery without the secret: refused, not handled');
  say(
    `forged subscription_ended → the receiver answered ${await deliver(base, subscriptionEndedEvent())}`,
  );

  step('A body that is not an event');
  await send('{"not": "an event"}', '{"not": "an event"}');
}

server.close();
server.closeAllConnections();
