/**
 * A partner's webhook process that stops: `http.createServer(handler.node)` with the in-memory
 * dedupe, a handler time limit and a body time limit, sent a delivery, its repeat, one whose
 * handler outlives its time limit and then throws (after its answer was sent), one whose handler
 * throws and one whose body stalls; then the server is closed. It prints what still keeps the event loop alive and ends without `process.exit`.
 * Started by receiver-exits.test.ts.
 */

import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler } from 'partner-sdk/webhooks';
import { subscriptionEndedBody } from '../helpers/webhook-bodies';

const handler = createWebhookHandler({
  verify: ({ headers }) => headers.get('x-webhook-secret') === 's3cret',
  dedupe: true,
  handlerTimeoutMs: 100,
  bodyTimeoutMs: 150,
  on: {
    subscription_ended: async (event) => {
      const total = event.payload.total_charges;
      if (total === 2) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        throw new Error('the handler failed after its answer was sent');
      }
      if (total === 3) throw new Error('the handler failed');
    },
  },
  logger: { error() {}, warn() {}, info() {}, debug() {} },
});

const server = createServer(handler.node);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

const deliver = (totalCharges: number) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-secret': 's3cret' },
    body: JSON.stringify({
      ...subscriptionEndedBody,
      payload: { ...subscriptionEndedBody.payload, total_charges: totalCharges },
    }),
  }).then((response) => response.status);

/** Sends the headers and half a body, then nothing: the receiver's body time limit answers. */
const stalled = () =>
  new Promise<number>((resolve, reject) => {
    const sent = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-webhook-secret': 's3cret',
        'content-length': '100',
      },
    });
    sent.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
      sent.destroy();
    });
    sent.on('error', reject);
    sent.write('{"event":');
  });

const statuses = [
  await deliver(1),
  await deliver(1),
  await deliver(2),
  await deliver(3),
  await stalled(),
];
await new Promise<void>((resolve) => server.close(() => resolve()));
// The handler that outlived its time limit is still running (a partner's timer): wait until it
// has thrown, which must not bring the process down.
await new Promise((resolve) => setTimeout(resolve, 350));
await new Promise((resolve) => setImmediate(resolve));
const holding = process
  .getActiveResourcesInfo()
  .filter((kind) => kind !== 'PipeWrap' && kind !== 'TCPSocketWrap');
process.stdout.write(`${JSON.stringify({ statuses, holding })}\n`);
