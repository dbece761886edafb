/**
 * A partner's webhook process: `http.createServer(handler.node)` whose handler and `onError` both
 * throw. It prints its port, then serves until its stdin closes. Started by receiver-edges.test.ts
 * with `--import ./examples/support/register.ts`.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler } from 'partner-sdk/webhooks';

const handler = createWebhookHandler({
  verify: ({ headers }) => headers.get('x-webhook-secret') === 's3cret',
  on: {
    subscription_ended: () => {
      throw new Error('the handler failed');
    },
  },
  onError: () => {
    throw new Error('onError failed too');
  },
  logger: { error() {}, warn() {}, info() {}, debug() {} },
});

const server = createServer(handler.node).listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.stdin.on('end', () => {
  server.close();
  server.closeAllConnections();
});
process.stdin.resume();
