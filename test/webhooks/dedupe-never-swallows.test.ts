/**
 * Webhook dedupe must never swallow a real event, and replicas sharing a store
 * must never both handle one delivery. At a0f3a0e the key was `event:request_id`, so a second,
 * different `bank_account_updated` under the same `request_id` was answered 200 `duplicate` and
 * never handled; and `has` then `add` let two receivers sharing a store both run the handler.
 * Everything goes through `partner-sdk/webhooks` and real loopback HTTP (node:http with `.node`,
 * and `.fetch` served over node:http), except the key properties, which need no socket.
 */

import http from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  defaultDedupeKey,
  type Logger,
  MemoryDedupeStore,
  parseWebhookEvent,
  type WebhookEvent,
  type WebhookHandler,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index';
import { closedAfterEach, send, serveFetch } from '../helpers/http-servers';
import { assertWithinBudget } from '../helpers/property-budget';
import { sleep, waitFor } from '../helpers/waits';
import { bankAccountUpdatedBody, subscriptionEndedBody } from '../helpers/webhook-bodies';

const { serve } = closedAfterEach();

const faces = {
  '.node on node:http': (handler: WebhookHandler) => http.createServer(handler.node),
  '.fetch over node:http': (handler: WebhookHandler) => serveFetch(handler.fetch),
};

/** Serves a receiver for the test; its delivery URL. */
async function receiverUrl(server: http.Server): Promise<string> {
  return `${(await serve(server)).url}/webhooks/partner`;
}

const silent: Logger = { error() {}, warn() {}, info() {}, debug() {} };
const SECRET = 's3cret';
const verify = ({ headers }: { headers: Headers }) => headers.get('x-webhook-secret') === SECRET;
const post = (url: string, body: unknown, secret = true) =>
  send(url, {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: secret ? { 'x-webhook-secret': SECRET } : {},
  });

/** Two events one API call emitted: the same envelope, the account approved then its data changed. */
const approved = {
  ...bankAccountUpdatedBody,
  payload: { ...bankAccountUpdatedBody.payload, status: 'approved' },
};
const changed = {
  ...bankAccountUpdatedBody,
  payload: { ...bankAccountUpdatedBody.payload, account_number: '654321', status: 'pending' },
};

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe.each(Object.entries(faces))('webhook dedupe over %s', (_face, mount) => {
  it('handles two different bank_account_updated events under one request_id', async () => {
    const handled: unknown[] = [];
    const handler = createWebhookHandler({
      verify,
      dedupe: true,
      on: {
        bank_account_updated: (event) => {
          handled.push(event.payload);
        },
      },
    });
    const url = await receiverUrl(mount(handler));
    const first = await post(url, approved);
    const second = await post(url, changed);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(JSON.parse(second.body)).toEqual({ received: true });
    expect(handled).toEqual([approved.payload, changed.payload]);
  });

  it('still answers a redelivery as a duplicate, however it is serialised', async () => {
    let runs = 0;
    const handler = createWebhookHandler({
      verify,
      dedupe: true,
      on: {
        subscription_ended: () => {
          runs += 1;
        },
      },
    });
    const url = await receiverUrl(mount(handler));
    expect((await post(url, subscriptionEndedBody)).status).toBe(200);
    const reordered = Object.fromEntries(Object.entries(subscriptionEndedBody).reverse());
    const again = await post(url, JSON.stringify(reordered, null, 2));
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toEqual({ received: true, duplicate: true });
    expect(runs).toBe(1);
  });

  it('lets a forged delivery under the real request_id not drop the real event (no verify)', async () => {
    const handled: unknown[] = [];
    const handler = createWebhookHandler({
      logger: silent,
      dedupe: true,
      on: {
        bank_account_updated: (event) => {
          handled.push(event.payload.status);
        },
      },
    });
    const url = await receiverUrl(mount(handler));
    const forged = { ...approved, payload: { ...approved.payload, status: 'reproved' } };
    expect((await post(url, forged, false)).status).toBe(200);
    const real = await post(url, approved, false);
    expect(JSON.parse(real.body)).toEqual({ received: true });
    expect(handled).toEqual(['reproved', 'approved']);
  });
});

describe('two receivers sharing one store', () => {
  it('run the handler once for concurrent duplicates, the loser answering 503 until it is handled', async () => {
    const store = new MemoryDedupeStore();
    const gate = deferred();
    let runs = 0;
    const options = {
      verify,
      dedupe: store,
      on: {
        subscription_ended: async () => {
          runs += 1;
          await gate.promise;
        },
      },
    };
    const urls = [
      await receiverUrl(http.createServer(createWebhookHandler(options).node)),
      await receiverUrl(serveFetch(createWebhookHandler(options).fetch)),
    ];
    let busy = 0;
    const deliveries = Array.from({ length: 16 }, (_, index) =>
      post(urls[index % 2] as string, subscriptionEndedBody).then((answer) => {
        if (answer.status === 503) busy += 1;
        return answer;
      }),
    );
    // The handler holds its claim until the other receiver has answered a duplicate 503.
    await waitFor(() => busy > 0, 'the other receiver to answer 503', 10_000);
    gate.resolve();
    const answers = await Promise.all(deliveries);
    expect(runs).toBe(1);
    const statuses = answers.map((answer) => answer.status);
    // The winner's receiver answers all of its duplicates 200 (they waited for it); the other one
    // answers 503 with Retry-After while the claim is held (200 duplicate after), so the sender
    // delivers again.
    expect(new Set(statuses)).toEqual(new Set([200, 503]));
    for (const answer of answers.filter((each) => each.status === 503)) {
      expect(answer.headers['retry-after']).toBe('5');
    }
    const redeliveries = await Promise.all(urls.map((url) => post(url, subscriptionEndedBody)));
    expect(redeliveries.map((answer) => JSON.parse(answer.body))).toEqual([
      { received: true, duplicate: true },
      { received: true, duplicate: true },
    ]);
    expect(runs).toBe(1);
  });

  it('let the redelivery of a failed delivery run on the other receiver', async () => {
    const store = new MemoryDedupeStore();
    let runs = 0;
    const options = {
      verify,
      dedupe: store,
      onError: () => {},
      on: {
        subscription_ended: () => {
          runs += 1;
          if (runs === 1) throw new Error('database down');
        },
      },
    };
    const [first, second] = [
      await receiverUrl(http.createServer(createWebhookHandler(options).node)),
      await receiverUrl(serveFetch(createWebhookHandler(options).fetch)),
    ] as [string, string];
    expect((await post(first, subscriptionEndedBody)).status).toBe(500);
    expect((await post(second, subscriptionEndedBody)).status).toBe(200);
    expect(JSON.parse((await post(first, subscriptionEndedBody)).body)).toEqual({
      received: true,
      duplicate: true,
    });
    expect(runs).toBe(2);
  });
});

describe('a receiver without verify', () => {
  it('warns once per logger that deliveries can be forged, and not when verify is set', () => {
    const warnings: string[] = [];
    const logger: Logger = { ...silent, warn: (message) => warnings.push(message) };
    createWebhookHandler({ logger, dedupe: true });
    createWebhookHandler({ logger });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/without verify/);
    expect(warnings[0]).toMatch(/forged delivery/);
    // It names the ready check, not only the problem.
    expect(warnings[0]).toMatch(/verify: secretVerifier\(/);

    const careful: string[] = [];
    createWebhookHandler({
      logger: { ...silent, warn: (message) => careful.push(message) },
      verify,
      dedupe: true,
    });
    expect(careful).toEqual([]);
  });
});

/** JSON values as a sender could put in a payload, `__proto__` keys included. */
const jsonValue = fc.jsonValue({ maxDepth: 4 });
const payload = fc.dictionary(
  fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'status')),
  jsonValue,
  { maxKeys: 6 },
);
const envelope = fc.record({
  event: fc.oneof(
    fc.constantFrom('user_updated', 'order_created', 'charge_status_changed'),
    fc.string({ minLength: 1 }),
  ),
  payload,
  metadata: fc.record({ request_id: fc.constantFrom('req_1', 'req_2') }),
});

/** The same JSON value with every object's keys in another order. */
function shuffled(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffled(item, seed));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const rotated = entries.map((_, index) => entries[(index + seed) % entries.length]);
  const result: Record<string, unknown> = {};
  for (const [key, item] of rotated as Array<[string, unknown]>) {
    Object.defineProperty(result, key, {
      value: shuffled(item, seed + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}

const parsed = (value: unknown): WebhookEvent => parseWebhookEvent(JSON.stringify(value));

describe('defaultDedupeKey properties', () => {
  it('never gives two different events the same key, even under one request_id', async () => {
    await assertWithinBudget(
      fc.asyncProperty(envelope, envelope, async (a, b) => {
        // Different as the handler sees them: parsing drops `__proto__` keys (never an own
        // property of an event), so two bodies differing only there are one event.
        const [first, second] = [parsed(a), parsed(b)];
        fc.pre(JSON.stringify(canonical(first)) !== JSON.stringify(canonical(second)));
        expect(await defaultDedupeKey(first)).not.toBe(await defaultDedupeKey(second));
      }),
      { numRuns: 300, minRuns: 20 },
    );
  });

  it('always gives one delivery the same key, whatever its key order or white space', async () => {
    await assertWithinBudget(
      fc.asyncProperty(envelope, fc.nat(5), async (event, seed) => {
        const text = JSON.stringify(shuffled(event, seed), null, seed);
        expect(await defaultDedupeKey(parseWebhookEvent(text))).toBe(
          await defaultDedupeKey(parsed(event)),
        );
      }),
      { numRuns: 300, minRuns: 20 },
    );
  });
});

/** A value with its objects' keys sorted: two values are the same JSON iff these print alike. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    Object.defineProperty(result, key, {
      value: canonical((value as Record<string, unknown>)[key]),
      enumerable: true,
    });
  }
  return result;
}

describe('replicas and redeliveries, generated', () => {
  it('handle every distinct event exactly once, whatever the order, replica and failures', async () => {
    const distinctEvents = fc.uniqueArray(
      fc.tuple(fc.constantFrom('approved', 'pending', 'reproved'), fc.nat(3)),
      {
        minLength: 1,
        maxLength: 6,
        selector: ([status, account]) => `${status}:${account}`,
      },
    );
    const plan = distinctEvents.chain((events) =>
      fc.record({
        events: fc.constant(events),
        sends: fc.array(fc.tuple(fc.nat(events.length - 1), fc.nat(1)), {
          minLength: events.length,
          maxLength: events.length * 3,
        }),
        failOnce: fc.subarray(events.map((_, index) => index)),
      }),
    );
    await assertWithinBudget(
      fc.asyncProperty(plan, async ({ events, sends, failOnce }) => {
        const bodies = events.map(([status, account]) => ({
          ...bankAccountUpdatedBody,
          payload: { ...bankAccountUpdatedBody.payload, status, account_number: `acct_${account}` },
        }));
        const succeeded = new Map<string, number>();
        const failed = new Set<string>();
        const store = new MemoryDedupeStore();
        const options: WebhookHandlerOptions = {
          verify,
          dedupe: store,
          onError: () => {},
          on: {
            bank_account_updated: async (event) => {
              const id = `${event.payload.status}:${event.payload.account_number}`;
              // A handler that takes a moment, so deliveries overlap.
              await sleep(1);
              const index = bodies.findIndex(
                (body) => `${body.payload.status}:${body.payload.account_number}` === id,
              );
              if (failOnce.includes(index) && !failed.has(id)) {
                failed.add(id);
                throw new Error('fails once');
              }
              succeeded.set(id, (succeeded.get(id) ?? 0) + 1);
            },
          },
        };
        const replicas = [createWebhookHandler(options), createWebhookHandler(options)];
        // A sender: every event at least once (the plan's sends, then each event once more), each
        // delivery retried on 5xx like a sender would, until answered 200.
        const deliveries = [...sends, ...events.map((_, index) => [index, index % 2] as const)];
        await Promise.all(
          deliveries.map(async ([index, replica]) => {
            for (let attempt = 0; attempt < 50; attempt += 1) {
              const response = await (replicas[replica] as WebhookHandler).fetch(
                new Request('http://127.0.0.1/webhooks/partner', {
                  method: 'POST',
                  headers: { 'x-webhook-secret': SECRET },
                  body: JSON.stringify(bodies[index]),
                }),
              );
              if (response.status === 200) return;
              // A sender's pause before it delivers again.
              await sleep(2);
            }
            throw new Error('a delivery was never acknowledged');
          }),
        );
        expect(succeeded.size).toBe(bodies.length);
        expect([...succeeded.values()].every((count) => count === 1)).toBe(true);
      }),
      { numRuns: 40, minRuns: 4 },
    );
  });
});
