/**
 * Webhook receivers deduplicating through RedisDedupeStore on a real redis-server, driven by a
 * sender written here with plain `fetch`: Redis going away while a handler runs (what is answered,
 * and that nothing is acknowledged that was not handled), and a hundred copies of one event at
 * once across two receivers sharing the store. Once per client library.
 */

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisDedupeStore, RedisStoreError } from '../../src/redis/index';
import { createWebhookHandler, type WebhookHandlerOptions } from '../../src/webhooks/index';
import { closedAfterEach } from '../helpers/http-servers';
import { type Connection, libraries } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';
import { sleep, waitFor } from '../helpers/waits';
import { subscriptionEndedBody } from '../helpers/webhook-bodies';

const { serve, onCleanup } = closedAfterEach();

const redis = useRedisServer();
// A test that stopped Redis starts it again, whatever happened in between.
afterEach(() => redis.start());

/** A gate a handler waits at until the test opens it. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

/** One delivery as the spec shows it; its status and `Retry-After`. */
async function deliver(
  url: string,
  body: string,
): Promise<{ status: number; retryAfter: string | null }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get('retry-after') };
}

/** Delivers `body` again, `pauseMs` apart, until it is answered 200; every status seen, in order. */
async function deliverUntilAcknowledged(
  url: string,
  body: string,
  { pauseMs, attempts }: { pauseMs: number; attempts: number },
): Promise<number[]> {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    const { status } = await deliver(url, body);
    statuses.push(status);
    if (status === 200) return statuses;
    // A sender's pause between redeliveries: what is under test is what each one is answered.
    await sleep(pauseMs);
  }
  return statuses;
}

describe.each(libraries)('receivers deduplicating on Redis over $name', (library) => {
  /** A receiver with its own Redis connection, as one replica of a fleet; its URL. */
  async function replica(
    prefix: string,
    options: WebhookHandlerOptions,
    commandTimeoutMs = 300,
  ): Promise<string> {
    const connection: Connection = await library.connect(redis.url);
    onCleanup(() => connection.close());
    const handler = createWebhookHandler({
      logLevel: 'off',
      dedupe: new RedisDedupeStore(connection.client, { prefix, commandTimeoutMs }),
      ...options,
    });
    return `${(await serve(http.createServer(handler.node))).url}/webhooks/partner`;
  }

  it('acknowledges with 200 a handler that succeeded while Redis went away, and tells onError the mark was not stored', async () => {
    const held = gate();
    const handled: string[] = [];
    const reported: unknown[] = [];
    let entered = false;
    const url = await replica(`outage-${randomUUID()}:`, {
      onError: (error) => reported.push(error),
      on: {
        subscription_ended: async (event) => {
          entered = true;
          await held.wait;
          handled.push(event.payload.subscription_code);
        },
      },
    });
    const answer = deliver(url, JSON.stringify(subscriptionEndedBody));
    await waitFor(() => entered, 'the handler to start');
    await redis.stop();
    held.open();
    // The work is done: acknowledging it is right, and redelivering it would run it twice.
    expect((await answer).status).toBe(200);
    expect(handled).toEqual([subscriptionEndedBody.payload.subscription_code]);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(RedisStoreError);
  });

  it('answers 500 to a handler that failed while Redis went away; redelivered once Redis is back, the event is handled once', async () => {
    const held = gate();
    const handled: string[] = [];
    let runs = 0;
    const url = await replica(`outage-${randomUUID()}:`, {
      // A short lease (2 × 1 s + 5 s), so the redeliveries below outlast it however Redis returns.
      handlerTimeoutMs: 1_000,
      onError: () => {},
      on: {
        subscription_ended: async (event) => {
          runs += 1;
          if (runs === 1) {
            await held.wait;
            throw new Error('the database is down too');
          }
          handled.push(event.payload.subscription_code);
        },
      },
    });
    const body = JSON.stringify(subscriptionEndedBody);
    const answer = deliver(url, body);
    await waitFor(() => runs === 1, 'the handler to start');
    // Redis keeps what it held (the claim), as a persistent one would.
    await redis.stop({ keepData: true });
    held.open();
    expect((await answer).status).toBe(500);
    expect(handled).toEqual([]);
    await redis.start();
    const statuses = await deliverUntilAcknowledged(url, body, { pauseMs: 200, attempts: 60 });
    // Until the claim is released or its lease ends: 500 (Redis not yet reachable again) or 503.
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.slice(0, -1).filter((status) => status !== 500 && status !== 503)).toEqual([]);
    expect(handled).toEqual([subscriptionEndedBody.payload.subscription_code]);
    expect(runs).toBe(2);
  }, 30_000);

  it('answers 500 and runs nothing while Redis is away before the claim', async () => {
    let runs = 0;
    const url = await replica(`outage-${randomUUID()}:`, {
      onError: () => {},
      on: {
        subscription_ended: () => {
          runs += 1;
        },
      },
    });
    await redis.stop();
    expect((await deliver(url, JSON.stringify(subscriptionEndedBody))).status).toBe(500);
    expect(runs).toBe(0);
  });

  it('runs 100 concurrent deliveries of one event once across two receivers: the other answers 503 with Retry-After, then 200 as a duplicate', async () => {
    const prefix = `crowd-${randomUUID()}:`;
    const held = gate();
    let runs = 0;
    const options: WebhookHandlerOptions = {
      on: {
        subscription_ended: async () => {
          runs += 1;
          await held.wait;
        },
      },
    };
    const urls = [await replica(prefix, options, 2_000), await replica(prefix, options, 2_000)];
    const body = JSON.stringify(subscriptionEndedBody);
    const answered: number[] = [];
    const first = Array.from({ length: 100 }, (_, index) =>
      deliver(urls[index % 2]!, body).then((answer) => {
        answered.push(answer.status);
        return answer;
      }),
    );
    // The handler runs on one receiver and is held there; the other receiver finds the delivery
    // in progress and answers each of its 50 copies at once.
    await waitFor(() => answered.length === 50, 'one receiver to answer its 50 copies', 10_000);
    expect(answered).toEqual(Array(50).fill(503));
    expect(runs).toBe(1);
    held.open();
    const answers = await Promise.all(first);
    expect(answers.map((answer) => answer.status).sort()).toEqual([
      ...Array(50).fill(200),
      ...Array(50).fill(503),
    ]);
    const busy = answers.findIndex((answer) => answer.status === 503);
    expect(answers[busy]?.retryAfter).toBe('5');
    // The sender delivers those again (sooner than Retry-After asks, to keep the test short).
    const again = await Promise.all(
      Array.from({ length: 50 }, () => deliver(urls[busy % 2]!, body)),
    );
    expect(again.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    expect(runs).toBe(1);
  }, 30_000);
});
