import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  createWebhookHandler,
  defaultDedupeKey,
  type GenericWebhookEvent,
  MemoryDedupeStore,
  type SubscriptionEndedEvent,
  type WebhookDedupeStore,
  type WebhookEvent,
} from '../../src/webhooks';
import { nextTurn, waitFor } from '../helpers/waits';
import {
  bankAccountUpdatedBody,
  subscriptionEndedBody,
  userUpdatedBody,
  withRequestId,
} from '../helpers/webhook-bodies';

function delivery(body: unknown, init: RequestInit = {}): Request {
  return new Request('http://127.0.0.1/webhooks/partner', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

/** A promise and its resolve function, to hold a handler until the test lets it go. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const quiet = { onError: () => {} };

describe('createWebhookHandler: answers', () => {
  it('answers 200 only after the handler resolved, with the typed event', async () => {
    const gate = deferred();
    const seen: SubscriptionEndedEvent[] = [];
    let entered = false;
    const handler = createWebhookHandler({
      on: {
        subscription_ended: async (event) => {
          entered = true;
          await gate.promise;
          seen.push(event);
        },
      },
    });

    let settled = false;
    const answer = handler.fetch(delivery(subscriptionEndedBody)).then((response) => {
      settled = true;
      return response;
    });
    await waitFor(() => entered, 'the handler to start');
    await nextTurn();
    expect(settled).toBe(false);

    gate.resolve();
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(seen.map((event) => event.payload.end_reason)).toEqual(['completed']);
  });

  it('answers 500 without internal detail when the handler throws', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({
      on: {
        bank_account_updated: () => {
          throw new Error('connection to postgres://app:hunter2@db failed');
        },
      },
      onError,
    });
    const response = await handler.fetch(delivery(bankAccountUpdatedBody));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toMatch(/postgres|hunter2|failed/);
    expect(onError).toHaveBeenCalledExactlyOnceWith(
      expect.any(Error),
      expect.objectContaining({ event: 'bank_account_updated' }),
    );
  });

  it('answers 400 with the reason for a malformed body, and 405 with Allow for other methods', async () => {
    const ran = vi.fn();
    const handler = createWebhookHandler({ onUnknown: ran });

    const notJson = await handler.fetch(delivery('{"event":'));
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: 'invalid_payload' });

    const noEvent = await handler.fetch(delivery({ payload: {} }));
    expect(noEvent.status).toBe(400);
    expect(await noEvent.json()).toMatchObject({
      message: expect.stringMatching(/event: required/),
    });

    const get = await handler.fetch(new Request('http://127.0.0.1/webhooks/partner'));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(ran).not.toHaveBeenCalled();
  });

  it('answers 401 when verify refuses, before parsing, and gives verify the raw body', async () => {
    const verify = vi.fn(
      ({ headers }: { headers: Headers }) => headers.get('x-webhook-secret') === 's3cret',
    );
    const ran = vi.fn();
    const handler = createWebhookHandler({ verify, onUnknown: ran });

    const refused = await handler.fetch(delivery('not even json'));
    expect(refused.status).toBe(401);

    const body = JSON.stringify(userUpdatedBody);
    const accepted = await handler.fetch(
      delivery(body, { headers: { 'x-webhook-secret': 's3cret' } }),
    );
    expect(accepted.status).toBe(200);
    const input = verify.mock.calls[1]?.[0] as unknown as { rawBody: Uint8Array; body: string };
    expect(input.body).toBe(body);
    expect(new TextDecoder().decode(input.rawBody)).toBe(body);
    expect(ran).toHaveBeenCalledOnce();
  });

  it('answers 413 from Content-Length before reading, and while reading a body without it', async () => {
    const handler = createWebhookHandler({ maxBodyBytes: 1024, onUnknown: () => {} });
    const declared = await handler.fetch(delivery('x'.repeat(2048)));
    expect(declared.status).toBe(413);

    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('x'.repeat(2048)));
        controller.close();
      },
    });
    const streamed = await handler.fetch(
      new Request('http://127.0.0.1/', {
        method: 'POST',
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);

    const fits = await handler.fetch(delivery(userUpdatedBody));
    expect(fits.status).toBe(200);
  });

  it('acknowledges an event nobody handles, and gives onUnknown every event without a handler', async () => {
    const idle = createWebhookHandler({ on: { subscription_ended: () => {} } });
    expect((await idle.fetch(delivery(userUpdatedBody))).status).toBe(200);
    expect((await idle.fetch(delivery(bankAccountUpdatedBody))).status).toBe(200);

    const unknown: string[] = [];
    const handler = createWebhookHandler({
      on: { subscription_ended: () => {} },
      onUnknown: (event) => {
        unknown.push(event.event);
      },
    });
    await handler.fetch(delivery(subscriptionEndedBody));
    await handler.fetch(delivery(userUpdatedBody));
    await handler.fetch(delivery(bankAccountUpdatedBody));
    // A name that is also an Object.prototype key must not reach Object's own members.
    await handler.fetch(delivery({ event: 'constructor', payload: {} }));
    expect(unknown).toEqual(['user_updated', 'bank_account_updated', 'constructor']);
  });

  it('types each handler in `on` with its own event', () => {
    createWebhookHandler({
      on: {
        subscription_ended: (event) => {
          expectTypeOf(event).toEqualTypeOf<SubscriptionEndedEvent>();
          expectTypeOf(event.payload.commissions).not.toBeAny();
        },
        bank_account_deleted: (event) => {
          expectTypeOf(event.payload.reason).toEqualTypeOf<string | null | undefined>();
          // @ts-expect-error a bank-account payload has no end_reason
          void event.payload.end_reason.length;
        },
        user_updated: (event) => {
          expectTypeOf(event).toEqualTypeOf<GenericWebhookEvent>();
        },
      },
    });
  });

  it('runs a handler registered for an untyped event name with the generic event', async () => {
    const payloads: unknown[] = [];
    const handler = createWebhookHandler({
      on: {
        user_updated: (event) => {
          payloads.push(event.payload);
        },
      },
    });
    expect((await handler.fetch(delivery(userUpdatedBody))).status).toBe(200);
    expect(payloads).toEqual([userUpdatedBody.payload]);
  });
});

describe('createWebhookHandler: dedupe', () => {
  it('handles the redelivery of an event whose handler threw', async () => {
    let calls = 0;
    const handler = createWebhookHandler({
      ...quiet,
      dedupe: true,
      on: {
        subscription_ended: () => {
          calls += 1;
          if (calls === 1) throw new Error('temporary failure');
        },
      },
    });
    expect((await handler.fetch(delivery(subscriptionEndedBody))).status).toBe(500);
    expect((await handler.fetch(delivery(subscriptionEndedBody))).status).toBe(200);
    expect(calls).toBe(2);
  });

  it('acknowledges a redelivery after success without running the handler again', async () => {
    const run = vi.fn();
    const handler = createWebhookHandler({ dedupe: true, on: { subscription_ended: run } });
    const first = await handler.fetch(delivery(subscriptionEndedBody));
    const again = await handler.fetch(delivery(subscriptionEndedBody));
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(run).toHaveBeenCalledOnce();
  });

  it('runs 20 concurrent deliveries of one event once, and answers all of them 200', async () => {
    const gate = deferred();
    const run = vi.fn(() => gate.promise);
    let keyed = 0;
    const handler = createWebhookHandler({
      dedupe: true,
      // Counts the deliveries that have their key: each then joins the first one at once.
      dedupeKey: async (event) => {
        const key = await defaultDedupeKey(event);
        keyed += 1;
        return key;
      },
      on: { subscription_ended: run },
    });
    const answers = Array.from({ length: 20 }, () =>
      handler.fetch(delivery(subscriptionEndedBody)),
    );
    await waitFor(
      () => keyed === 20 && run.mock.calls.length === 1,
      'every delivery to have its key',
    );
    await nextTurn();
    gate.resolve();
    const statuses = (await Promise.all(answers)).map((response) => response.status);
    expect(statuses).toEqual(Array(20).fill(200));
    expect(run).toHaveBeenCalledOnce();
  });

  it('gives duplicates that waited on a failing first delivery the same 500', async () => {
    const gate = deferred();
    const run = vi.fn(async () => {
      await gate.promise;
      throw new Error('down');
    });
    let keyed = 0;
    const handler = createWebhookHandler({
      ...quiet,
      dedupe: true,
      // Counts the deliveries that have their key: each then joins the first one at once.
      dedupeKey: async (event) => {
        const key = await defaultDedupeKey(event);
        keyed += 1;
        return key;
      },
      on: { subscription_ended: run },
    });
    const answers = Array.from({ length: 5 }, () => handler.fetch(delivery(subscriptionEndedBody)));
    // Only once every duplicate is waiting does the first delivery fail: one that came later would
    // be a redelivery after the failure, and rightly run the handler again.
    await waitFor(() => keyed === 5, 'every delivery to have its key');
    await nextTurn();
    gate.resolve();
    const statuses = (await Promise.all(answers)).map((response) => response.status);
    expect(statuses).toEqual(Array(5).fill(500));
    expect(run).toHaveBeenCalledOnce();
  });

  it('runs two different events that share one request_id', async () => {
    const seen: string[] = [];
    const record = (event: WebhookEvent) => {
      seen.push(event.event);
    };
    const handler = createWebhookHandler({
      dedupe: true,
      on: { bank_account_updated: record, user_updated: record },
    });
    const shared = 'req_one_api_call';
    await handler.fetch(delivery(withRequestId(bankAccountUpdatedBody, shared)));
    await handler.fetch(delivery(withRequestId(userUpdatedBody, shared)));
    await handler.fetch(delivery(withRequestId(userUpdatedBody, shared)));
    expect(seen).toEqual(['bank_account_updated', 'user_updated']);
  });

  it('dedupes an event without a request_id on its content alone', async () => {
    const run = vi.fn();
    const handler = createWebhookHandler({ dedupe: true, on: { subscription_ended: run } });
    const body = withRequestId(subscriptionEndedBody, null);
    await handler.fetch(delivery(body));
    await handler.fetch(delivery(body));
    expect(run).toHaveBeenCalledOnce();
    const { metadata: _dropped, ...noMetadata } = subscriptionEndedBody;
    await handler.fetch(delivery(noMetadata));
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('keys deliveries with dedupeKey when given', async () => {
    const run = vi.fn();
    const handler = createWebhookHandler({
      dedupe: true,
      dedupeKey: (event) =>
        event.event === 'subscription_ended'
          ? `ended:${(event as SubscriptionEndedEvent).payload.subscription_code}`
          : undefined,
      on: { subscription_ended: run },
    });
    await handler.fetch(delivery(withRequestId(subscriptionEndedBody, 'req_a')));
    await handler.fetch(delivery(withRequestId(subscriptionEndedBody, 'req_b')));
    expect(run).toHaveBeenCalledOnce();
  });

  it('handles every event a dedupeKey gives an empty key, warning once, instead of dropping all but the first', async () => {
    const run = vi.fn();
    const warnings: unknown[][] = [];
    const handler = createWebhookHandler({
      dedupe: true,
      // A key taken from a field the events do not carry: empty for every one of them.
      dedupeKey: (event) => String((event.payload as Record<string, unknown>)?.missing ?? ''),
      on: { user_updated: run },
      logger: { ...console, warn: (...args: unknown[]) => void warnings.push(args) },
    });
    for (const requestId of ['req_a', 'req_b', 'req_c']) {
      const answer = await handler.fetch(delivery(withRequestId(userUpdatedBody, requestId)));
      expect(await answer.json()).toEqual({ received: true });
    }
    expect(run).toHaveBeenCalledTimes(3);
    expect(warnings.filter((args) => /empty key/.test(String(args[0])))).toHaveLength(1);
  });

  it('keeps the in-memory store within its bound, forgetting the least recently seen first', async () => {
    const store = new MemoryDedupeStore({ maxEntries: 5 });
    const run = vi.fn();
    const handler = createWebhookHandler({ dedupe: store, on: { subscription_ended: run } });
    for (let index = 0; index < 20; index += 1) {
      await handler.fetch(delivery(withRequestId(subscriptionEndedBody, `req_${index}`)));
      expect(store.size).toBeLessThanOrEqual(5);
    }
    expect(store.size).toBe(5);
    expect(run).toHaveBeenCalledTimes(20);

    await handler.fetch(delivery(withRequestId(subscriptionEndedBody, 'req_19')));
    expect(run).toHaveBeenCalledTimes(20);
    await handler.fetch(delivery(withRequestId(subscriptionEndedBody, 'req_0')));
    expect(run).toHaveBeenCalledTimes(21);

    expect(new MemoryDedupeStore().maxEntries).toBe(10_000);
    expect(() => new MemoryDedupeStore({ maxEntries: 0 })).toThrow(RangeError);
  });

  it('bounds the store that dedupe: true creates', async () => {
    const run = vi.fn();
    const probe = createWebhookHandler({ dedupe: true, on: { subscription_ended: run } });
    // 10,001 distinct deliveries push the first key out of the default store of 10,000.
    for (let index = 0; index <= 10_000; index += 1) {
      await probe.fetch(delivery(withRequestId(subscriptionEndedBody, `req_${index}`)));
    }
    await probe.fetch(delivery(withRequestId(subscriptionEndedBody, 'req_10000')));
    expect(run).toHaveBeenCalledTimes(10_001);
    await probe.fetch(delivery(withRequestId(subscriptionEndedBody, 'req_0')));
    expect(run).toHaveBeenCalledTimes(10_002);
    // 10,002 whole deliveries (parse, digest, claim, handle): ~1 s idle, 9 s seen on a loaded
    // machine, so more than the default 15 s to finish; no fewer will push a key out of the store.
  }, 60_000);

  it('claims in a pluggable store, completing after success and releasing after a failure', async () => {
    const inner = new MemoryDedupeStore();
    const store: WebhookDedupeStore = {
      claim: vi.fn((key, options) => inner.claim(key, options)),
      complete: vi.fn((key, options) => inner.complete(key, options)),
      release: vi.fn((key, options) => inner.release(key, options)),
    };
    let fail = true;
    const handler = createWebhookHandler({
      ...quiet,
      dedupe: store,
      dedupeTtlMs: 60_000,
      handlerTimeoutMs: 1_000,
      on: {
        subscription_ended: () => {
          if (fail) throw new Error('not yet');
        },
      },
    });
    expect((await handler.fetch(delivery(subscriptionEndedBody))).status).toBe(500);
    expect(store.release).toHaveBeenCalledOnce();
    expect(store.complete).not.toHaveBeenCalled();
    fail = false;
    expect((await handler.fetch(delivery(subscriptionEndedBody))).status).toBe(200);
    expect((await handler.fetch(delivery(subscriptionEndedBody))).status).toBe(200);
    expect(store.complete).toHaveBeenCalledOnce();
    const [key, claimOptions] = vi.mocked(store.claim).mock.calls[1] ?? [];
    expect(key).toMatch(/^subscription_ended:req_01HQ8Z3K4M5N6P7Q8R9S:[0-9a-f]{64}$/);
    expect(claimOptions).toEqual({ leaseMs: 7_000, owner: expect.any(String) });
    expect(vi.mocked(store.complete).mock.calls[0]).toEqual([
      key,
      { ttlMs: 60_000, owner: claimOptions?.owner },
    ]);
  });

  it('releases a claim the store grants after its time is up, so the redelivery is handled, not answered 503', async () => {
    const inner = new MemoryDedupeStore();
    const slow = deferred();
    let calls = 0;
    const store: WebhookDedupeStore = {
      claim: async (key, options) => {
        calls += 1;
        if (calls === 1) await slow.promise;
        return inner.claim(key, options);
      },
      complete: (key, options) => inner.complete(key, options),
      release: vi.fn((key, options) => inner.release(key, options)),
    };
    const run = vi.fn();
    const handler = createWebhookHandler({
      ...quiet,
      dedupe: store,
      handlerTimeoutMs: 50,
      on: { subscription_ended: run },
    });
    expect((await handler.fetch(delivery(subscriptionEndedBody))).status).toBe(500);
    slow.resolve();
    await waitFor(
      () => vi.mocked(store.release).mock.calls.length === 1,
      'the late claim to be released',
    );
    expect((await handler.fetch(delivery(subscriptionEndedBody))).status).toBe(200);
    expect(run).toHaveBeenCalledOnce();
  });

  it('answers 500 when the store cannot claim or release, and 200 when only completing fails', async () => {
    const onError = vi.fn();
    const run = vi.fn();
    const down = new Error('redis down');
    const failing = (method: keyof WebhookDedupeStore): WebhookDedupeStore => {
      const inner = new MemoryDedupeStore();
      return {
        claim: (key, options) =>
          method === 'claim' ? Promise.reject(down) : inner.claim(key, options),
        complete: (key, options) =>
          method === 'complete' ? Promise.reject(down) : inner.complete(key, options),
        release: (key, options) =>
          method === 'release' ? Promise.reject(down) : inner.release(key, options),
      };
    };
    const noClaim = createWebhookHandler({
      onError,
      dedupe: failing('claim'),
      on: { subscription_ended: run },
    });
    expect((await noClaim.fetch(delivery(subscriptionEndedBody))).status).toBe(500);
    expect(run).not.toHaveBeenCalled();

    const forgetful = createWebhookHandler({
      onError,
      dedupe: failing('complete'),
      on: { subscription_ended: run },
    });
    expect((await forgetful.fetch(delivery(subscriptionEndedBody))).status).toBe(200);
    expect(run).toHaveBeenCalledOnce();

    const stuck = createWebhookHandler({
      onError,
      dedupe: failing('release'),
      on: {
        subscription_ended: () => {
          throw new Error('handler failed');
        },
      },
    });
    expect((await stuck.fetch(delivery(subscriptionEndedBody))).status).toBe(500);
    expect(onError.mock.calls.map(([error]) => (error as Error).message)).toEqual([
      'redis down',
      'redis down',
      'handler failed',
      'redis down',
    ]);
  });
});
