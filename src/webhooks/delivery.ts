/**
 * What happens to a delivery once its body is read: the `verify` check, parsing, dedupe and the
 * partner's handler, turned into the answer `createWebhookHandler` writes.
 *
 * @module
 */

import { WebhookPayloadError } from '../core/errors';
import { defaultDedupeKey, MemoryDedupeStore, type WebhookDedupeStore } from './dedupe';
import { parseWebhookEvent, type WebhookEvent } from './events';
import type { WebhookHandlerOptions } from './handler';

/** An answer, before it is written to a Fetch `Response` or a Node.js response. */
export interface Outcome {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const utf8 = new TextDecoder();

/** 405 for any method but POST; `Allow` says which one is. */
export const METHOD_NOT_ALLOWED: Outcome = {
  status: 405,
  body: { error: 'method_not_allowed', message: 'webhook deliveries are POST requests' },
  headers: { allow: 'POST' },
};
const UNAUTHORIZED: Outcome = { status: 401, body: { error: 'unauthorized' } };
/** 500 with nothing about the failure itself: the sender only needs to know it should retry. */
export const FAILED: Outcome = { status: 500, body: { error: 'internal_error' } };
const RECEIVED: Outcome = { status: 200, body: { received: true } };
const DUPLICATE: Outcome = { status: 200, body: { received: true, duplicate: true } };

/** Answers a delivery whose body was read: raw bytes, or a value a framework already parsed. */
export type Deliver = (
  headers: Headers,
  body: { raw: Uint8Array } | { parsed: unknown },
) => Promise<Outcome>;

/**
 * Builds the part of the handler that runs once the body is read: verify, parse, dedupe, run the
 * partner's handler. Never throws: every outcome is an answer.
 *
 * @example
 * ```ts
 * const { deliver } = createDelivery({ on: { subscription_ended: end } });
 * const outcome = await deliver(request.headers, { raw: bytes }); // { status: 200, … }
 * ```
 */
export function createDelivery(options: WebhookHandlerOptions): {
  deliver: Deliver;
  onError: NonNullable<WebhookHandlerOptions['onError']>;
} {
  const { on = {}, onUnknown, verify, dedupeKey = defaultDedupeKey } = options;
  const onError =
    options.onError ??
    ((error: unknown, event: WebhookEvent | undefined) =>
      console.error(`partner-sdk: webhook ${event?.event ?? 'delivery'} failed`, error));
  const store: WebhookDedupeStore | undefined =
    options.dedupe === true
      ? new MemoryDedupeStore()
      : options.dedupe === false
        ? undefined
        : options.dedupe;
  // Deliveries being handled right now, by key: a duplicate waits for the first one's answer.
  const inFlight = new Map<string, Promise<Outcome>>();

  const run = async (event: WebhookEvent): Promise<Outcome> => {
    const handler = Object.hasOwn(on, event.event) ? on[event.event] : undefined;
    const handle = handler ?? onUnknown;
    if (!handle) return RECEIVED;
    try {
      await (handle as (event: WebhookEvent) => unknown)(event);
      return RECEIVED;
    } catch (error) {
      onError(error, event);
      return FAILED;
    }
  };

  const runOnce = async (event: WebhookEvent, key: string, dedupeStore: WebhookDedupeStore) => {
    try {
      if (await dedupeStore.has(key)) return DUPLICATE;
    } catch (error) {
      onError(error, event);
      return FAILED;
    }
    const outcome = await run(event);
    if (outcome === RECEIVED) {
      try {
        await dedupeStore.add(key);
      } catch (error) {
        // Handled all the same: forgetting it only risks running it again on a redelivery.
        onError(error, event);
      }
    }
    return outcome;
  };

  const deliver: Deliver = async (headers, body) => {
    const raw = 'raw' in body ? body.raw : undefined;
    if (verify) {
      const text = raw
        ? utf8.decode(raw)
        : (JSON.stringify((body as { parsed: unknown }).parsed) ?? '');
      try {
        if (!(await verify({ rawBody: raw, body: text, headers }))) return UNAUTHORIZED;
      } catch (error) {
        onError(error, undefined);
        return FAILED;
      }
    }
    let event: WebhookEvent;
    try {
      event = parseWebhookEvent(raw ?? (body as { parsed: unknown }).parsed);
    } catch (error) {
      if (error instanceof WebhookPayloadError) {
        return { status: 400, body: { error: 'invalid_payload', message: error.message } };
      }
      onError(error, undefined);
      return FAILED;
    }
    const key = store ? (dedupeKey(event) ?? undefined) : undefined;
    if (!store || key === undefined) return run(event);
    const running = inFlight.get(key);
    if (running) return running;
    const outcome = runOnce(event, key, store);
    inFlight.set(key, outcome);
    try {
      return await outcome;
    } finally {
      inFlight.delete(key);
    }
  };
  return { deliver, onError };
}
