/**
 * The `{ has, add }` dedupe store DESIGN names beside the claim contract: a set of handled keys,
 * read before the handler and written after its success, run by the receiver's own in-process
 * wait so that one process never handles a delivery twice.
 */

import { randomUUID } from 'node:crypto';
import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createWebhookHandler,
  type SimpleDedupeStore,
  type WebhookDedupeStore,
  type WebhookHandlerOptions,
} from '../../src/webhooks';
import { nodeRedis } from '../helpers/redis-libraries';
import { type RedisServer, startRedisServer } from '../helpers/redis-server';
import { waitFor } from '../helpers/waits';
import { subscriptionEndedBody, withRequestId } from '../helpers/webhook-bodies';

function delivery(body: unknown): Request {
  return new Request('http://127.0.0.1/webhooks/partner', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A receiver that keeps the no-`verify` warning off the test's output. */
const receiver = (options: WebhookHandlerOptions) =>
  createWebhookHandler({ logLevel: 'off', ...options });

/** A store over a Set, recording what it was asked. */
function setStore() {
  const handled = new Set<string>();
  const added: { key: string; ttlMs: number }[] = [];
  const store: SimpleDedupeStore = {
    has: async (key) => handled.has(key),
    add: async (key, { ttlMs }) => {
      added.push({ key, ttlMs });
      handled.add(key);
    },
  };
  return { store, added };
}

describe('createWebhookHandler with a { has, add } dedupe store', () => {
  it('runs a delivery once, adding its key with the time to live after the handler succeeded', async () => {
    const { store, added } = setStore();
    const handle = vi.fn();
    const handler = receiver({
      on: { subscription_ended: handle },
      dedupe: store,
      dedupeTtlMs: 60_000,
    });
    expect((await handler.fetch(delivery(subscriptionEndedBody))).status).toBe(200);
    expect((await handler.fetch(delivery(subscriptionEndedBody))).status).toBe(200);
    expect(handle).toHaveBeenCalledTimes(1);
    expect(added).toHaveLength(1);
    expect(added[0]!.ttlMs).toBe(60_000);
    expect(added[0]!.key).toMatch(/^subscription_ended:/);
  });

  it('adds nothing when the handler fails, so the redelivery runs it again', async () => {
    const { store, added } = setStore();
    let calls = 0;
    const handler = receiver({
      on: {
        subscription_ended: () => {
          calls++;
          if (calls === 1) throw new Error('first try failed');
        },
      },
      dedupe: store,
      onError: () => {},
    });
    expect((await handler.fetch(delivery(subscriptionEndedBody))).status).toBe(500);
    expect(added).toHaveLength(0);
    expect((await handler.fetch(delivery(subscriptionEndedBody))).status).toBe(200);
    expect(calls).toBe(2);
    expect(added).toHaveLength(1);
  });

  it('runs 20 concurrent deliveries of one event once in one process, answering all 200', async () => {
    const { store } = setStore();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handle = vi.fn(() => held);
    const handler = receiver({ on: { subscription_ended: handle }, dedupe: store });
    const answers = Array.from({ length: 20 }, () =>
      handler.fetch(delivery(subscriptionEndedBody)),
    );
    await waitFor(() => handle.mock.calls.length > 0, 'the first delivery to be handled');
    release();
    const statuses = (await Promise.all(answers)).map((answer) => answer.status);
    expect(statuses).toEqual(Array(20).fill(200));
    expect(handle).toHaveBeenCalledTimes(1);
  });

  it('answers 500 when has fails or answers something else, and 200 when only add fails', async () => {
    const errors: string[] = [];
    const onError = (error: unknown) => errors.push((error as Error).message);
    const handle = vi.fn();
    const down: SimpleDedupeStore = {
      has: async () => {
        throw new Error('store down');
      },
      add: async () => {},
    };
    const odd = { has: async () => 'yes', add: async () => {} } as unknown as SimpleDedupeStore;
    const full: SimpleDedupeStore = {
      has: () => false,
      add: async () => {
        throw new Error('store full');
      },
    };
    const answer = (store: SimpleDedupeStore) =>
      receiver({ on: { subscription_ended: handle }, dedupe: store, onError }).fetch(
        delivery(subscriptionEndedBody),
      );
    expect((await answer(down)).status).toBe(500);
    expect((await answer(odd)).status).toBe(500);
    expect(handle).not.toHaveBeenCalled();
    expect((await answer(full)).status).toBe(200);
    expect(handle).toHaveBeenCalledTimes(1);
    expect(errors).toEqual([
      'store down',
      "the dedupe store's has answered a string, not a boolean",
      'store full',
    ]);
  });

  it('prefers the claim contract when a store has both shapes', async () => {
    const claim = vi.fn(async () => 'claimed' as const);
    const has = vi.fn(async () => false);
    const both: WebhookDedupeStore & SimpleDedupeStore = {
      claim,
      complete: async () => {},
      release: async () => {},
      has,
      add: async () => {},
    };
    const handler = receiver({ on: { subscription_ended: () => {} }, dedupe: both });
    expect((await handler.fetch(delivery(subscriptionEndedBody))).status).toBe(200);
    expect(claim).toHaveBeenCalledTimes(1);
    expect(has).not.toHaveBeenCalled();
  });

  it('refuses, at creation, a dedupe object of neither shape', () => {
    const neither = { get: async () => false } as unknown as SimpleDedupeStore;
    expect(() => receiver({ dedupe: neither })).toThrow(
      /WebhookDedupeStore \(claim, complete and release\) or a SimpleDedupeStore \(has and add\)/,
    );
  });
});

describe('a { has, add } store over a real Redis, as its JSDoc example writes it', () => {
  let server: RedisServer;
  let redis: RedisClientType;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = (await nodeRedis.connect(server.url)).client as RedisClientType;
  }, 20_000);
  afterAll(async () => {
    redis?.destroy();
    await server?.close();
  });

  it('lets a second receiver on the same Redis answer a redelivery without running it', async () => {
    const prefix = `webhook-${randomUUID()}:`;
    const handled: SimpleDedupeStore = {
      has: (key) => redis.exists(`${prefix}${key}`),
      add: (key, { ttlMs }) => redis.set(`${prefix}${key}`, '1', { PX: ttlMs }),
    };
    const handle = vi.fn();
    const replicas = [1, 2].map(() =>
      receiver({ on: { subscription_ended: handle }, dedupe: handled }),
    );
    const body = withRequestId(subscriptionEndedBody, randomUUID());
    expect((await replicas[0]!.fetch(delivery(body))).status).toBe(200);
    expect((await replicas[1]!.fetch(delivery(body))).status).toBe(200);
    expect(handle).toHaveBeenCalledTimes(1);
    const [key] = await redis.keys(`${prefix}*`);
    expect(await redis.pTTL(key!)).toBeGreaterThan(6 * 24 * 3600 * 1000);
  });
});
