/**
 * What happens to a delivery once its body is read: the `verify` check, parsing, the claim in the
 * dedupe store and the partner's handler, turned into the answer `createWebhookHandler` writes.
 *
 * @module
 */

import { WebhookPayloadError } from '../core/errors';
import type { SdkLogger } from '../core/logging/logger';
import type { SpanScope } from '../telemetry/types';
import type { DedupeClaimResult, WebhookDedupeStore } from './dedupe';
import { parseWebhookEvent, type WebhookEvent } from './events';
import type { WebhookHandlerContext, WebhookVerifyInput } from './options';
import {
  DUPLICATE,
  FAILED,
  IN_PROGRESS,
  type Outcome,
  RECEIVED,
  UNAUTHORIZED,
  UNVERIFIED_LINE,
} from './outcomes';
import { shownEventName } from './shown-event-name';
import { recordedEventName } from './telemetry';
import { settleWithin } from './time-limit';
import { warnOnce } from './warn-once';

const utf8 = new TextDecoder();

/** Everything a delivery needs, resolved and checked by `createWebhookHandler`. */
export interface DeliveryConfig {
  on: Record<string, ((event: never, context: WebhookHandlerContext) => unknown) | undefined>;
  onUnknown: ((event: WebhookEvent, context: WebhookHandlerContext) => unknown) | undefined;
  verify: ((input: WebhookVerifyInput) => boolean | Promise<boolean>) | undefined;
  store: WebhookDedupeStore | undefined;
  dedupeKey: (event: WebhookEvent) => unknown;
  /** How long a handled mark lasts in the store. */
  dedupeTtlMs: number;
  /** The bound on the handler, and on each call to `verify`, `dedupeKey` and the store. */
  handlerTimeoutMs: number;
  /** Tells `onError`, and never throws whatever `onError` does. */
  report: (error: unknown, event: WebhookEvent | undefined) => void;
  log: SdkLogger;
}

/** A delivery whose body was read: raw bytes, or a value a framework already parsed. */
export interface DeliveryInput {
  headers: Headers;
  url: URL;
  body: { raw: Uint8Array } | { parsed: unknown };
}

/**
 * Builds the part of the handler that runs once the body is read: verify, parse, claim, run the
 * partner's handler, complete or release the claim. Never rejects: every outcome is an answer.
 *
 * @example
 * ```ts
 * const deliver = createDelivery(config);
 * const outcome = await deliver({ headers: request.headers, url, body: { raw: bytes } }); // { status: 200, … }
 * ```
 */
export function createDelivery(
  config: DeliveryConfig,
): (input: DeliveryInput, span?: SpanScope) => Promise<Outcome> {
  // Deliveries being handled in this process, by key: a duplicate waits for the first one's answer.
  const inFlight = new Map<string, Promise<Outcome>>();
  return async (input, span) => {
    const refused = await verifyDelivery(config, input);
    if (refused) return refused;
    const raw = 'raw' in input.body ? input.body.raw : undefined;
    const parsed = 'parsed' in input.body ? input.body.parsed : undefined;
    let event: WebhookEvent;
    try {
      event = parseWebhookEvent(raw ?? parsed);
    } catch (error) {
      if (error instanceof WebhookPayloadError) return invalidPayload(config, error.message);
      if (error instanceof RangeError) {
        return invalidPayload(config, 'webhook body is nested too deeply');
      }
      config.report(error, undefined);
      return FAILED;
    }
    span?.set({ 'partner_sdk.webhook.event': recordedEventName(event.event) });
    const { store } = config;
    if (!store) return runHandler(config, event);
    const key = await dedupeKeyOf(config, event);
    if (typeof key !== 'string') return key ?? runHandler(config, event);
    const running = inFlight.get(key);
    if (running) return running;
    const outcome = runClaimed(config, event, key, store);
    inFlight.set(key, outcome);
    try {
      return await outcome;
    } finally {
      inFlight.delete(key);
    }
  };
}

/** The answer that refuses a delivery `verify` does not let in, or `undefined` to go on. */
async function verifyDelivery(
  config: DeliveryConfig,
  { headers, url, body }: DeliveryInput,
): Promise<Outcome | undefined> {
  const { verify } = config;
  if (!verify) return undefined;
  const raw = 'raw' in body ? body.raw : undefined;
  let text: string;
  try {
    text = raw ? utf8.decode(raw) : (JSON.stringify('parsed' in body ? body.parsed : '') ?? '');
  } catch {
    // Nested past what JSON.stringify can walk (or cyclic): no event the service sends.
    return invalidPayload(config, 'webhook body cannot be serialised back to JSON');
  }
  const verdict = await settleWithin(
    () => verify({ rawBody: raw, body: text, headers, url }),
    config.handlerTimeoutMs,
    'verify',
  );
  if (!verdict.ok) {
    config.report(verdict.error, undefined);
    return FAILED;
  }
  if (verdict.value === true) return undefined;
  if (verdict.value !== false) {
    // Plain JavaScript can return the token it read instead of a verdict, which any forger
    // could send: only `true` lets a delivery in. Named by type only, as the value may be a secret.
    const returned = verdict.value === null ? 'null' : typeof verdict.value;
    config.report(new TypeError(`verify returned ${returned}, not a boolean`), undefined);
    return FAILED;
  }
  // A signature over the sent bytes cannot match a body a framework parsed and `verify` only sees
  // serialised again: every delivery is then refused, and the partner must hear why.
  if (!raw) {
    warnOnce(config.log, 'verify-parsed-body', () =>
      config.log.warn(
        'webhook verify refused a delivery whose body a framework had already parsed (express.json()?): verify got no rawBody, only the JSON serialised again, which a signature over the bytes sent never matches. Mount the handler before any JSON parser, or behind express.raw({ type: "application/json" }), or keep the bytes on req.rawBody (NestJS: rawBody: true).',
      ),
    );
  }
  config.log.warn(UNVERIFIED_LINE);
  return UNAUTHORIZED;
}

/**
 * The key `dedupeKey` names `event` by; `undefined` to handle the event without dedupe, or the
 * answer when the key cannot be had.
 */
async function dedupeKeyOf(
  config: DeliveryConfig,
  event: WebhookEvent,
): Promise<string | Outcome | undefined> {
  const keyed = await settleWithin(
    () => config.dedupeKey(event),
    config.handlerTimeoutMs,
    'dedupeKey',
  );
  if (!keyed.ok) {
    config.report(keyed.error, event);
    return FAILED;
  }
  const key = keyed.value;
  if (key === undefined || key === null) return undefined;
  if (key === '') {
    // An empty key would make every event it is given for a duplicate of the first: run them all.
    warnOnce(config.log, 'empty-dedupe-key', () =>
      config.log.warn(
        'webhook dedupeKey returned an empty key: such events are handled without dedupe (an empty key would make each one a duplicate of the first); return null to skip dedupe on purpose',
      ),
    );
    return undefined;
  }
  if (typeof key !== 'string') {
    config.report(new TypeError(`dedupeKey returned a ${typeof key}, not a string`), event);
    return FAILED;
  }
  return key;
}

/** Runs the partner's handler for `event` (or `onUnknown`) within its time-out. */
async function runHandler(config: DeliveryConfig, event: WebhookEvent): Promise<Outcome> {
  const handle = Object.hasOwn(config.on, event.event) ? config.on[event.event] : undefined;
  const chosen = (handle ?? config.onUnknown) as
    | ((event: WebhookEvent, context: WebhookHandlerContext) => unknown)
    | undefined;
  if (!chosen) return RECEIVED;
  const controller = new AbortController();
  const result = await settleWithin(
    () => chosen(event, { signal: controller.signal }),
    config.handlerTimeoutMs,
    `the ${shownEventName(event.event)} handler`,
    (late) =>
      config.log.warn(
        `webhook ${shownEventName(event.event)} handler failed after its time-out`,
        late,
      ),
  );
  if (result.ok) return RECEIVED;
  if (result.timedOut) controller.abort(result.error);
  config.report(result.error, event);
  return FAILED;
}

/** Claims `key` in the store, runs the handler if the claim was won, then completes or releases it. */
async function runClaimed(
  config: DeliveryConfig,
  event: WebhookEvent,
  key: string,
  store: WebhookDedupeStore,
): Promise<Outcome> {
  const { handlerTimeoutMs, report } = config;
  // The claim must outlive the handler and the store call after it; past that, a crashed
  // receiver's claim expires and a redelivery may run the handler.
  const leaseMs = 2 * handlerTimeoutMs + 5_000;
  const owner = crypto.randomUUID();
  const claiming = Promise.resolve().then(() => store.claim(key, { leaseMs, owner }));
  const claim = await settleWithin(() => claiming, handlerTimeoutMs, "the dedupe store's claim");
  if (!claim.ok) {
    report(claim.error, event);
    // A claim won after its time was up is held for nobody: released, the redelivery the 500 asks
    // for is handled, instead of answered 503 as in progress until the lease ends.
    if (claim.timedOut) void releaseLateClaim(claiming, store, key, owner);
    return FAILED;
  }
  const found: DedupeClaimResult = claim.value;
  if (found === 'handled') return DUPLICATE;
  if (found === 'in-progress') {
    config.log.debug(
      `webhook ${shownEventName(event.event)} is being handled elsewhere: answered 503`,
    );
    return IN_PROGRESS;
  }
  if (found !== 'claimed') {
    report(new TypeError(`the dedupe store's claim answered ${String(found)}`), event);
    return FAILED;
  }
  const outcome = await runHandler(config, event);
  const settled =
    outcome === RECEIVED
      ? await settleWithin(
          () => store.complete(key, { ttlMs: config.dedupeTtlMs, owner }),
          handlerTimeoutMs,
          "the dedupe store's complete",
        )
      : await settleWithin(
          () => store.release(key, { owner }),
          handlerTimeoutMs,
          "the dedupe store's release",
        );
  // A failed complete still answers 200: the handler did its work, and the claim keeps
  // redeliveries out until its lease ends. A failed release leaves the lease to end alone.
  if (!settled.ok) report(settled.error, event);
  return outcome;
}

/** Releases the claim `claiming` wins, if it ever does; nothing is left to report by then. */
async function releaseLateClaim(
  claiming: Promise<DedupeClaimResult>,
  store: WebhookDedupeStore,
  key: string,
  owner: string,
): Promise<void> {
  try {
    if ((await claiming) === 'claimed') await store.release(key, { owner });
  } catch {
    // The claim failed after all, or the release did: the lease ends the claim on its own.
  }
}

/**
 * 400 for a body that is not a valid event. A sender may never send such a delivery again, so the
 * partner hears of it too: the reason the sender is told (bounded, quoting nothing of the body
 * but its first characters when it is not JSON), not the body.
 */
function invalidPayload({ log }: DeliveryConfig, message: string): Outcome {
  log.warn(`webhook delivery refused with 400: ${message}`);
  return { status: 400, body: { error: 'invalid_payload', message } };
}
