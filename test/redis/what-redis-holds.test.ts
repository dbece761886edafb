/**
 * What a reader of the shared Redis sees, once every store has been used against a service that
 * echoes the credentials into its errors: the token store, a bulk job's journal with failed items
 * carrying sellers' tokens, the webhook dedupe store behind `secretVerifier`, and a BullMQ job
 * that failed for good (its `failedReason` and stack trace kept by BullMQ). Every key and value is
 * read back: the client secret, the sellers' tokens and the webhook secret are nowhere; the client
 * token is in one key only, the token store's, which expires.
 */

import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { PartnerClient } from 'partner-sdk';
import { requestRefunds } from 'partner-sdk/bulk';
import { enqueueRefunds, refundProcessor } from 'partner-sdk/bullmq';
import { RedisDedupeStore, RedisJournalStore, RedisTokenStore } from 'partner-sdk/redis';
import { createWebhookHandler, secretVerifier } from 'partner-sdk/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server';
import { json, type StubServer, startStub } from '../helpers/stub-server';
import { withTimeout } from '../helpers/waits';
import { userUpdatedBody } from '../helpers/webhook-bodies';

const CLIENT_SECRET = 'redis-reader-client-secret-1';
const CLIENT_TOKEN = 'redis-reader-client-token-1';
const SELLERS = ['redis-reader-seller-token-1', 'redis-reader-seller-token-2'];
const WEBHOOK_SECRET = 'redis-reader-webhook-secret-1';

const redis = useRedisServer();
let api: StubServer;
beforeAll(async () => {
  // The service refuses every refund, quoting back what it was sent, headers and all.
  api = await startStub((req, res) => {
    if (req.path === '/auth') return json(res, 200, { client_token: CLIENT_TOKEN });
    if (req.method === 'GET') return json(res, 200, { data: [] });
    const echo = `${req.headers.authorization} ${req.headers['x-api-client-token']}`;
    return json(res, 422, { message: `refused: ${echo}`, errors: { [echo]: [echo] } });
  });
});
afterAll(async () => {
  await api?.close();
});

/** Every key of the Redis with everything it holds, as text. */
async function everything(client: Redis): Promise<Map<string, string>> {
  const read: Record<string, (key: string) => Promise<unknown>> = {
    string: (key) => client.get(key),
    hash: (key) => client.hgetall(key),
    list: (key) => client.lrange(key, 0, -1),
    set: (key) => client.smembers(key),
    zset: (key) => client.zrange(key, '0', '-1'),
    stream: (key) => client.xrange(key, '-', '+'),
  };
  const all = new Map<string, string>();
  for (const key of await client.keys('*')) {
    const type = await client.type(key);
    all.set(key, JSON.stringify(await (read[type] ?? (async () => type))(key)));
  }
  return all;
}

describe('what the shared Redis holds', () => {
  it('no secret, no seller token; the client token only in the token store, expiring', async () => {
    const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
    const reader = new Redis(connection);
    const queue = new Queue(`refunds-${randomUUID()}`, { connection });
    const prefix = 'app:';
    const client = new PartnerClient({
      baseUrl: api.baseUrl,
      clientId: 'redis-reader',
      clientSecret: CLIENT_SECRET,
      tokenStore: new RedisTokenStore(reader, { prefix }),
      logLevel: 'off',
    });
    try {
      const journal = new RedisJournalStore(reader, { prefix });
      const items = SELLERS.map((sellerToken, n) => ({ transactionHash: `trx_${n}`, sellerToken }));
      const summary = await requestRefunds(client, items, {
        journal: { store: journal, job: 'j' },
      });
      expect(summary.failed).toBe(2);
      await journal.close();

      const receiver = createWebhookHandler({
        on: { user_updated: () => {} },
        verify: secretVerifier({ secret: WEBHOOK_SECRET, query: 'token' }),
        dedupe: new RedisDedupeStore(reader, { prefix }),
        logLevel: 'off',
      });
      const delivery = new Request(`http://receiver.test/hooks?token=${WEBHOOK_SECRET}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(userUpdatedBody),
      });
      expect((await receiver.fetch(delivery)).status).toBe(200);

      const seller = client.forUser(SELLERS[0]!);
      const worker = new Worker(queue.name, refundProcessor(seller, { queue }), { connection });
      worker.on('error', () => {});
      const failed = new Promise<string>((resolve) =>
        worker.on('failed', (_job, e) => resolve(e.message)),
      );
      await enqueueRefunds(queue, [{ transactionHash: 'trx_queued' }]);
      expect(await withTimeout(failed, 20_000, 'the job to fail')).toMatch(/^UnprocessableEntity/);
      await worker.close();

      const held = await everything(reader);
      const text = [...held].map(([key, value]) => `${key} ${value}`);
      // Each store's keys are among those read: the journal's records, the dedupe mark, the job.
      expect(text.some((line) => line.includes('"trx_0"'))).toBe(true);
      expect(text.some((line) => line.startsWith(`${prefix}webhook:user_updated:`))).toBe(true);
      expect(text.some((line) => line.includes('failedReason'))).toBe(true);
      expect(text.some((line) => line.includes('refused: Bearer [REDACTED]'))).toBe(true);
      for (const secret of [CLIENT_SECRET, WEBHOOK_SECRET, ...SELLERS]) {
        expect(text.filter((line) => line.includes(secret))).toEqual([]);
      }
      const withToken = [...held].filter(([key, value]) => `${key}${value}`.includes(CLIENT_TOKEN));
      expect(withToken.map(([key]) => key)).toEqual([
        `${prefix}{token:${api.baseUrl} redis-reader}`,
      ]);
      const ttl = await reader.pttl(withToken[0]![0]);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(3_600_000);
    } finally {
      await queue.close();
      reader.disconnect();
    }
  }, 60_000);
});
