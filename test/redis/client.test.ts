/**
 * The documented Redis set-up survives an outage. The guide's `createClient()` has no `'error'`
 * listener, and node-redis emits `'error'` when its connection breaks: an event nobody hears
 * throws, and the process ended. The stores give such a client a listener, so a receiver built
 * exactly as the guide shows (its snippet, run as it is, in a process of its own) keeps running
 * while Redis is down, answers deliveries with an error meanwhile, and handles them again once
 * Redis is back.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionEndedEvent } from '../../src/testing/index';
import { type Child, startChild } from '../helpers/children';
import { ROOT, snippetIn } from '../helpers/doc-snippets';
import { type RedisServer, startRedisServer } from '../helpers/redis-server';

const TOKEN = 'outage-webhook-token';

/**
 * The guide's snippet, as written, and after it what a partner's process adds: a server for the
 * webhooks, the `endSubscription` the snippet calls, and a line saying it is ready.
 */
function receiverSource(): string {
  const { code } = snippetIn('docs/running-on-many-replicas.md', 'Set-up');
  return `${code}
import { createServer as createHttpServer } from 'node:http';
const server = createHttpServer((req, res) => void webhooks.node(req, res));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
process.stdout.write(\`\${JSON.stringify({ ready: true, port: typeof address === 'object' && address ? address.port : 0, client: typeof client })}\\n\`);
function endSubscription(code: string) {
  process.stdout.write(\`\${JSON.stringify({ ended: code })}\\n\`);
}
`;
}

let redis: RedisServer;
let receiver: Child;
let url: string;
beforeAll(async () => {
  redis = await startRedisServer();
  const dir = `${ROOT}.tmp/redis-outage`;
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/receiver-${process.pid}.ts`;
  writeFileSync(file, receiverSource());
  receiver = startChild(file, {
    REDIS_URL: redis.url,
    WEBHOOK_TOKEN: TOKEN,
    PARTNER_API_BASE_URL: 'http://127.0.0.1:9/api/v1',
    PARTNER_API_CLIENT_ID: 'outage-client',
    PARTNER_API_CLIENT_SECRET: 'outage-secret',
  });
  const ready = await receiver.next<{ port: number }>(30_000);
  url = `http://127.0.0.1:${ready.port}/webhooks?token=${TOKEN}`;
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await redis?.close();
});

async function deliver(code: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(subscriptionEndedEvent({ subscription_code: code })),
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
  return response.status;
}

const alive = () => receiver.process.exitCode === null && receiver.process.signalCode === null;

describe('a receiver built as the Redis guide shows', () => {
  it('keeps running while Redis is down, and handles deliveries again once it is back', async () => {
    expect(await deliver('sub_before')).toBe(200);
    expect(await receiver.next(5_000)).toEqual({ ended: 'sub_before' });

    await redis.stop();
    // The delivery's claim waits for Redis within commandTimeoutMs, then fails: the node-redis
    // client has seen its connection break by then.
    const during = await deliver('sub_during');
    expect(during).toBeGreaterThanOrEqual(500);
    expect(alive(), receiver.stderr()).toBe(true);

    await redis.start();
    let after = 0;
    for (let attempt = 0; attempt < 40 && after !== 200; attempt++) {
      after = await deliver('sub_during');
      if (after !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(after).toBe(200);
    expect(await receiver.next(5_000)).toEqual({ ended: 'sub_during' });
    expect(alive()).toBe(true);
  }, 60_000);
});
