/**
 * A busy partner's webhook process on loopback: `handler.node` on `http.createServer`, or
 * (`FACE=fetch`) `handler.fetch` served over node:http as a Fetch-standard runtime would. It dedupes
 * in a `MemoryDedupeStore` (of `MAX_ENTRIES` keys, or the default); handlers take `HANDLER_MS` each,
 * bounded by `HANDLER_TIMEOUT_MS`, bodies by `BODY_TIMEOUT_MS`, idle sockets by `SERVER_TIMEOUT_MS`
 * when set. It counts each handler call by subscription code, so the sender (receiver-load.test.ts)
 * can tell a redelivery that ran a handler again. First line `{ ready, url }`; then
 * `{ "op": "report" }` answers the counts, the store's size, the heap used after a full collection
 * and the RSS.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createWebhookHandler, MemoryDedupeStore } from 'partner-sdk/webhooks';
import { serveFetch } from '../helpers/http-servers';

// A full collection before each figure, without a flag on the command line (startChild takes none).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const handlerMs = Number(process.env.HANDLER_MS ?? 0);
const maxEntries = process.env.MAX_ENTRIES;
const store = new MemoryDedupeStore(maxEntries ? { maxEntries: Number(maxEntries) } : {});
const calls = new Map<string, number>();
let running = 0;
let mostRunning = 0;
let finished = 0;

const handler = createWebhookHandler({
  on: {
    subscription_ended: async (event) => {
      const code = event.payload.subscription_code;
      calls.set(code, (calls.get(code) ?? 0) + 1);
      running++;
      mostRunning = Math.max(mostRunning, running);
      try {
        if (handlerMs > 0) await new Promise((resolve) => setTimeout(resolve, handlerMs));
      } finally {
        running--;
        finished++;
      }
    },
  },
  dedupe: store,
  handlerTimeoutMs: Number(process.env.HANDLER_TIMEOUT_MS ?? 30_000),
  bodyTimeoutMs: Number(process.env.BODY_TIMEOUT_MS ?? 10_000),
  verify: ({ headers }) => headers.get('x-webhook-token') === 'load-token',
  onError: () => undefined,
  logLevel: 'off',
});

// `FACE=fetch` serves `handler.fetch` the way a Fetch-standard runtime would, over node:http.
const server =
  process.env.FACE === 'fetch'
    ? serveFetch(handler.fetch)
    : createServer((req, res) => void handler.node(req, res));
if (process.env.SERVER_TIMEOUT_MS) server.timeout = Number(process.env.SERVER_TIMEOUT_MS);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
process.stdout.write(
  `${JSON.stringify({ ready: true, url: `http://127.0.0.1:${port}/webhooks` })}\n`,
);

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as { op: string };
  if (command.op === 'report') {
    gc();
    const counts = [...calls.values()];
    process.stdout.write(
      `${JSON.stringify({
        events: calls.size,
        calls: counts.reduce((sum, count) => sum + count, 0),
        calledTwice: counts.filter((count) => count > 1).length,
        running,
        mostRunning,
        finished,
        storeSize: store.size,
        heapMb: mb(process.memoryUsage().heapUsed),
        rssMb: mb(process.memoryUsage().rss),
      })}\n`,
    );
  }
}
server.close();
