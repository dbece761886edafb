/**
 * The options of {@link createWebhookHandler} and what the partner's code receives from it: typed
 * handlers by event name, the context each handler gets, and what `verify` sees.
 *
 * @module
 */

import type { Logger, LogLevel } from '../core/logging/logger';
import type { TelemetryOptions } from '../telemetry/types';
import type { defaultDedupeKey, WebhookDedupeStore } from './dedupe';
import type {
  GenericWebhookEvent,
  KnownWebhookEvent,
  KnownWebhookEventName,
  WebhookEvent,
} from './events';
import type { createWebhookHandler } from './handler';
import type { MemoryDedupeStore } from './memory-dedupe-store';
import type { SimpleDedupeStore } from './simple-dedupe-store';
import type { WebhookTimeoutError } from './time-limit';

// Method syntax keeps parameters bivariant, so a handler typed for one event fits the index signature.
/**
 * A handler for one event: may be async; the delivery is acknowledged once it resolves.
 *
 * @inline
 */
type EventHandler<E> = { handle(event: E, context: WebhookHandlerContext): unknown }['handle'];

/** What a handler gets besides its event. */
export interface WebhookHandlerContext {
  /**
   * Aborted when the handler outlives `handlerTimeoutMs`: the delivery was then answered 500 and
   * its claim released, so the sender's redelivery may run the handler again while this run goes
   * on. Pass it to your database or HTTP calls so the abandoned run stops.
   */
  signal: AbortSignal;
}

/**
 * Handlers by event name. The three typed events get their typed event; any other name (for
 * example `user_updated`) gets a {@link GenericWebhookEvent}. A handler may be async: the delivery
 * is acknowledged only after it resolves, and answered 500 (so the sender retries) if it throws.
 */
export type WebhookHandlers = {
  [Name in KnownWebhookEventName]?: EventHandler<Extract<KnownWebhookEvent, { event: Name }>>;
} & {
  /** Any other event name: its handler gets a {@link GenericWebhookEvent}. */
  [name: string]: EventHandler<GenericWebhookEvent> | undefined;
};

/** What `verify` gets to decide whether a delivery is authentic. */
export interface WebhookVerifyInput {
  /**
   * The body's bytes exactly as received; `undefined` when a framework parsed the body before the
   * handler saw it (Express `express.json()`): mount the handler before any JSON parser, or with
   * `express.raw({ type: 'application/json' })`, to check a signature over the raw body.
   */
  rawBody: Uint8Array | undefined;
  /** The body as text: `rawBody` decoded as UTF-8, or the re-serialised JSON of a parsed body. */
  body: string;
  /**
   * The URL the delivery was sent to, where a secret agreed with the platform may sit (for example
   * `?token=…`). On Node.js its path and query are the request's (`originalUrl` under Express);
   * its scheme is `http:` and its host the `Host` header, whatever the proxy in front saw.
   */
  url: URL;
  /** The request headers. */
  headers: Headers;
}

/**
 * Options of {@link createWebhookHandler}.
 *
 * @example
 * ```ts
 * const handler = createWebhookHandler({
 *   on: { bank_account_updated: async (event) => syncAccount(event.payload.code) },
 *   onUnknown: (event) => log.info('unhandled webhook', event.event),
 *   dedupe: true,
 *   dedupeKey: (event) => `${event.event}:${event.metadata?.request_id ?? ''}:${event.created_at ?? ''}`,
 *   verify: secretVerifier({ secret: process.env.WEBHOOK_SECRET, header: 'x-webhook-secret' }),
 *   maxBodyBytes: 256 * 1024,
 *   onError: (error, event) => log.error('webhook failed', event?.event, error),
 * });
 * ```
 */
export interface WebhookHandlerOptions {
  /** Handlers by event name. */
  on?: WebhookHandlers | undefined;
  /**
   * Runs for every event that has no handler in `on`, typed or not. Without it such an event is
   * acknowledged (200) with nothing run.
   */
  onUnknown?: ((event: WebhookEvent, context: WebhookHandlerContext) => unknown) | undefined;
  /**
   * Handle each delivery once: `true` for a {@link MemoryDedupeStore} of 10,000 keys (this process
   * only; a redelivery arriving after 10,000 other deliveries runs again, so at load pass one with
   * a larger `maxEntries`), or a shared {@link WebhookDedupeStore} (`partner-sdk/redis`, a database) so that of all
   * the replicas receiving one delivery exactly one runs its handler, or a
   * {@link SimpleDedupeStore} (`{ has, add }`, a set of handled keys: each delivery once in one
   * process, but two replicas given one delivery at the same moment may both handle it). Off by
   * default.
   */
  dedupe?: boolean | WebhookDedupeStore | SimpleDedupeStore | undefined;
  /**
   * The key that names one delivery for `dedupe` (may be async); `undefined` or `null` means never
   * dedupe this event. An empty key is taken as no key (with a warning): it would make every
   * event given it a duplicate of the first. Default: {@link defaultDedupeKey}, the event name, `metadata.request_id`
   * and a SHA-256 of the event's content. A key that throws answers 500 and reaches `onError`.
   */
  dedupeKey?:
    | ((event: WebhookEvent) => string | null | undefined | Promise<string | null | undefined>)
    | undefined;
  /**
   * How long the store remembers a handled delivery, in milliseconds: a redelivery within it is
   * answered 200 without running the handler. Default 7 days.
   */
  dedupeTtlMs?: number | undefined;
  /**
   * Decides whether a delivery is authentic: `true` lets it in, `false` answers 401 before the body
   * is parsed, and any other answer (the token it read, `undefined`) answers 500 and reaches
   * `onError` as a `TypeError`, so a mistaken check never lets a delivery in. The
   * spec does not define how deliveries are authenticated (no signature or secret is shown), so
   * this is where a partner checks a secret agreed with the platform in the URL or a header, or an
   * allow-list. Without it anyone who can reach the URL can deliver events (and, with `dedupe`, a
   * forged delivery with a guessed `request_id` can make the real one look like a duplicate): the
   * receiver warns once through `logger`.
   */
  verify?: ((input: WebhookVerifyInput) => boolean | Promise<boolean>) | undefined;
  /**
   * The largest body accepted, in bytes: a larger one gets 413, from its `Content-Length` before
   * any of it is read, or, without one, as soon as what was read passes the bound (the rest is
   * never read). Default 1 MiB.
   */
  maxBodyBytes?: number | undefined;
  /**
   * How long the whole body may take to arrive, in milliseconds; a body still incomplete then is
   * answered 408 and its connection closed, what was read of it dropped. At most 2 147 483 647 ms.
   * Default 10 s.
   */
  bodyTimeoutMs?: number | undefined;
  /**
   * The most bytes that the bodies being read at once may hold together, across every delivery of
   * this receiver; a delivery whose body would go past it is answered 503 with `Retry-After: 1`
   * and its connection closed (the sender delivers it again). Bounds the memory that many slow or
   * stalled senders can hold. Default 64 MiB, or `maxBodyBytes` if larger; a value below
   * `maxBodyBytes` is refused (`RangeError`).
   */
  maxBufferedBodyBytes?: number | undefined;
  /**
   * How long a handler may run, in milliseconds (the same bound applies to each call to `verify`,
   * `dedupeKey` and the dedupe store). Past it the delivery is answered 500, its claim released so
   * the sender's redelivery runs it, the handler's `signal` aborted and `onError` told with a
   * {@link WebhookTimeoutError}. At most 2 147 483 647 ms. Default 30 s. It bounds each handler,
   * not how many run at once: every delivery read runs its own.
   */
  handlerTimeoutMs?: number | undefined;
  /**
   * Told about every failure answered 500 (a handler, `verify`, `dedupeKey` or the dedupe store
   * threw or timed out) and about a dedupe store that failed to remember a handled delivery
   * (answered 200). If it throws or rejects, that is logged and changes nothing else. Default: an
   * error line through `logger`.
   */
  onError?: ((error: unknown, event: WebhookEvent | undefined) => void) | undefined;
  /**
   * Where the receiver logs: anything with console's four methods taking a message and then
   * details (winston as it is; pino through the adapter `Logger` shows, or it drops the error of
   * a failed delivery). Every line is redacted. Default `console`. One short of a method (or no
   * object) is a `TypeError` at creation.
   */
  logger?: Logger | undefined;
  /**
   * How much the receiver logs: `'warn'` by default (a receiver without `verify`, an old store);
   * `'debug'` adds the deliveries whose sender went away mid-body and those answered 503 because
   * another receiver is handling them. Read whatever its case (`'WARN'` is `'warn'`), as the
   * client reads `PARTNER_API_LOG`; another name throws a `TypeError`.
   */
  logLevel?: LogLevel | undefined;
  /**
   * OpenTelemetry: a span per delivery (its event name and dedupe verdict), under the span active
   * when the request came in, with the handler running inside it; and the count of deliveries by
   * verdict. Default: the providers registered with `@opentelemetry/api` (nothing without one);
   * `false` turns it off. See the "Tracing and metrics" guide.
   */
  telemetry?: false | TelemetryOptions | undefined;
}
