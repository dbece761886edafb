/**
 * A guide's Cloudflare Worker (a snippet whose default export has `fetch`), sent what the platform
 * sends it: a webhook delivery with the secret of its registered URL, and one without. The
 * Worker's `env` holds the run's PARTNER_API_* settings and `WEBHOOK_TOKEN` as bindings, and a
 * KV namespace stand-in under any other name the Worker reads.
 */

import { subscriptionEndedEvent } from 'partner-sdk/testing';
import { expect } from 'vitest';
import type { SnippetRun } from './snippet-scope';

interface Worker {
  fetch(request: Request, env: unknown, ctx: unknown): Promise<Response> | Response;
}

/** Whether a snippet's default export is a Worker's handler. */
export function isWorker(value: unknown): value is Worker {
  return typeof (value as Partial<Worker> | undefined)?.fetch === 'function';
}

/** A KV namespace in memory: what a Worker's `put` stored, `get` reads. */
function kvStandIn() {
  const stored = new Map<string, string>();
  return {
    stored,
    get: async (key: string) => stored.get(key) ?? null,
    put: async (key: string, value: string) => {
      stored.set(key, value);
    },
  };
}

/**
 * Delivers an ended subscription of the kit's recurring product to `worker`: answered 200, the API
 * called and something stored; the same without the secret: 401, nothing more called.
 */
export async function deliverToWorker(run: SnippetRun, worker: Worker): Promise<void> {
  const settings = run.env();
  const namespaces = new Map<string, ReturnType<typeof kvStandIn>>();
  const env = new Proxy(settings, {
    get: (target, name) => {
      if (typeof name !== 'string' || name in target) return Reflect.get(target, name);
      if (!namespaces.has(name)) namespaces.set(name, kvStandIn());
      return namespaces.get(name);
    },
  });
  const ctx = { waitUntil: () => {}, passThroughOnException: () => {} };
  const event = subscriptionEndedEvent({ product_hash: run.mock.products.recurring.hash });
  const post = (query: string) =>
    new Request(`http://worker.example/webhooks${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
  const forged = await worker.fetch(post('?token=forged'), env, ctx);
  expect(forged.status).toBe(401);
  expect(run.mock.stats.requests).toBe(0);
  const token = encodeURIComponent(settings.WEBHOOK_TOKEN!);
  const answer = await worker.fetch(post(`?token=${token}`), env, ctx);
  expect(answer.status, await answer.clone().text()).toBe(200);
  expect(run.mock.stats.requests).toBeGreaterThan(0);
  const stored = [...namespaces.values()].flatMap(({ stored }) => [...stored.keys()]);
  expect(stored).toContain(event.payload.subscription_code);
}
