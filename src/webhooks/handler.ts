/**
 * {@link createWebhookHandler}: the receiver a partner mounts at its webhook URL. It reads the body
 * within a size bound, checks authenticity (when told how), parses the event, runs the partner's
 * handler and answers 200 only once that handler succeeded, so the sender redelivers anything
 * that was not handled. Redeliveries of a handled event are acknowledged without running it again.
 *
 * @module
 */

import { createLogger, type Logger, type LogLevel } from '../core/logger';
import {
  ABORTED,
  BodyBudget,
  type BodyLimits,
  type BodyRead,
  declaredLength,
  type NodeWebhookRequest,
  OVER_BUDGET,
  readNodeBody,
  readWebBody,
  TOO_LARGE,
  TOO_SLOW,
} from './body';
import { defaultDedupeKey, isDedupeStore, type WebhookDedupeStore } from './dedupe';
import {
  BUSY,
  createDelivery,
  FAILED,
  INCOMPLETE,
  METHOD_NOT_ALLOWED,
  type Outcome,
  TOO_SLOW_OUTCOME,
} from './delivery';
import type {
  GenericWebhookEvent,
  KnownWebhookEvent,
  KnownWebhookEventName,
  WebhookEvent,
} from './events';
import { MemoryDedupeStore } from './memory-dedupe-store';
import { warnOnce } from './warn-once';

export type { NodeWebhookRequest } from './body';

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
 *   verify: ({ headers }) => headers.get('x-webhook-secret') === process.env.WEBHOOK_SECRET,
 *   maxBodyBytes: 256 * 1024,
 *   onError: (error, event) => log.error('webhook failed', event?.event, error),
 * });
 * ```
 */
export interface WebhookHandlerOptions {
  /** Handlers by event name. */
  on?: WebhookHandlers;
  /**
   * Runs for every event that has no handler in `on`, typed or not. Without it such an event is
   * acknowledged (200) with nothing run.
   */
  onUnknown?: (event: WebhookEvent, context: WebhookHandlerContext) => unknown;
  /**
   * Handle each delivery once: `true` for a {@link MemoryDedupeStore} of 10,000 keys (this process
   * only), or a shared {@link WebhookDedupeStore} (`partner-sdk/redis`, a database) so that of all
   * the replicas receiving one delivery exactly one runs its handler. Off by default. The old
   * `{ has, add }` shape is refused with a `TypeError`: it cannot claim a delivery atomically.
   */
  dedupe?: boolean | WebhookDedupeStore;
  /**
   * The key that names one delivery for `dedupe` (may be async); `undefined` or `null` means never
   * dedupe this event. Default: {@link defaultDedupeKey}, the event name, `metadata.request_id`
   * and a SHA-256 of the event's content. A key that throws answers 500 and reaches `onError`.
   */
  dedupeKey?: (
    event: WebhookEvent,
  ) => string | null | undefined | Promise<string | null | undefined>;
  /**
   * How long the store remembers a handled delivery, in milliseconds: a redelivery within it is
   * answered 200 without running the handler. Default 7 days.
   */
  dedupeTtlMs?: number;
  /**
   * Decides whether a delivery is authentic; `false` answers 401 before the body is parsed. The
   * spec does not define how deliveries are authenticated (no signature or secret is shown), so
   * this is where a partner checks a secret agreed with the platform in the URL or a header, or an
   * allow-list. Without it anyone who can reach the URL can deliver events (and, with `dedupe`, a
   * forged delivery with a guessed `request_id` can make the real one look like a duplicate): the
   * receiver warns once through `logger`.
   */
  verify?: (input: WebhookVerifyInput) => boolean | Promise<boolean>;
  /** The largest body accepted, in bytes; larger ones get 413 without being read. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * How long the whole body may take to arrive, in milliseconds; a body still incomplete then is
   * answered 408 and its connection closed, what was read of it dropped. Default 10 s.
   */
  bodyTimeoutMs?: number;
  /**
   * The most bytes that the bodies being read at once may hold together, across every delivery of
   * this receiver; a delivery whose body would go past it is answered 503 with `Retry-After: 1`
   * and its connection closed (the sender delivers it again). Bounds the memory that many slow or
   * stalled senders can hold. Default 64 MiB, or `maxBodyBytes` if larger.
   */
  maxBufferedBodyBytes?: number;
  /**
   * How long a handler may run, in milliseconds (the same bound applies to each call to `verify`,
   * `dedupeKey` and the dedupe store). Past it the delivery is answered 500, its claim released so
   * the sender's redelivery runs it, the handler's `signal` aborted and `onError` told with a
   * {@link WebhookTimeoutError}. Default 30 s.
   */
  handlerTimeoutMs?: number;
  /**
   * Told about every failure answered 500 (a handler, `verify`, `dedupeKey` or the dedupe store
   * threw or timed out) and about a dedupe store that failed to remember a handled delivery
   * (answered 200). If it throws or rejects, that is logged and changes nothing else. Default: an
   * error line through `logger`.
   */
  onError?: (error: unknown, event: WebhookEvent | undefined) => void;
  /**
   * Where the receiver logs: anything with console's four methods (pino, winston). Every line is
   * redacted. Default `console`.
   */
  logger?: Logger;
  /**
   * How much the receiver logs: `'warn'` by default (a receiver without `verify`, an old store);
   * `'debug'` adds the deliveries whose sender went away mid-body and those answered 503 because
   * another receiver is handling them.
   */
  logLevel?: LogLevel;
}

/** A mounted receiver: the same behaviour for Fetch-standard runtimes and for Node.js servers. */
export interface WebhookHandler {
  /**
   * Answers one delivery as a Fetch-standard handler (Hono, Next.js route handlers, Bun, Deno,
   * Cloudflare Workers). Never throws: every outcome is a response.
   *
   * @example
   * ```ts
   * app.post('/webhooks/partner', (c) => handler.fetch(c.req.raw)); // Hono
   * export const POST = handler.fetch; // Next.js route handler
   * ```
   */
  fetch(request: Request): Promise<Response>;
  /**
   * Answers one delivery on a Node.js `http` server or in Express. Reads the body itself, or uses
   * `req.body` when a framework already read it (`express.json()`, `express.raw()`, `express.text()`).
   * Never rejects: every outcome is written to `res`.
   *
   * @example
   * ```ts
   * http.createServer(handler.node).listen(3000);
   * app.post('/webhooks/partner', handler.node); // Express
   * ```
   */
  node(req: NodeWebhookRequest, res: NodeWebhookResponse): Promise<void>;
}

/**
 * The part of a Node.js `ServerResponse` (or Express `Response`) the handler uses. You never
 * implement it: pass the `res` your server gives you.
 *
 * @example
 * ```ts
 * http.createServer((req, res) => handler.node(req, res)); // res: ServerResponse fits
 * ```
 */
export interface NodeWebhookResponse {
  /** Status code to send. */
  statusCode: number;
  /** Whether the head was already sent (then the handler writes nothing). */
  readonly headersSent: boolean;
  /** Sets a response header. */
  setHeader(name: string, value: string): unknown;
  /** Sends `body` and ends the response. */
  end(body: string): unknown;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_BODY_TIMEOUT_MS = 10_000;
const DEFAULT_HANDLER_TIMEOUT_MS = 30_000;
const DEFAULT_DEDUPE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const DEFAULT_MAX_BUFFERED_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Creates the receiver for the service's webhook deliveries (spec §6), to mount at the URL
 * configured for the client. For each delivery it answers:
 *
 * - 200 once the event's handler resolved (or when nothing handles that event, or for an
 *   already-handled redelivery when `dedupe` is on);
 * - 400 when the body is not a valid event (see {@link parseWebhookEvent}), or ended early;
 * - 401 when `verify` returns false;
 * - 405 (with `Allow: POST`) for any method but POST;
 * - 408 when the body did not arrive whole within `bodyTimeoutMs` (default 10 s);
 * - 413 when the body is over `maxBodyBytes` (default 1 MiB), decided from `Content-Length` when
 *   sent and otherwise while reading, never holding more than the bound;
 * - 500, with no detail, when the handler (or `verify`, `dedupeKey`, the dedupe store) throws or
 *   outlives `handlerTimeoutMs` (default 30 s), so that the sender delivers the event again;
 * - 503 with `Retry-After: 5` when `dedupe` finds the same delivery being handled by another
 *   receiver sharing the store: the sender delivers again later and gets 200 as a duplicate.
 *
 * With `dedupe`, the receiver claims a delivery in the store before running its handler, marks it
 * handled after the handler succeeded and releases the claim when it failed, so the redelivery runs
 * it; a duplicate that arrives in this process while the first is still running waits for it and
 * gets the same answer.
 *
 * @example
 * ```ts
 * import { createWebhookHandler } from 'partner-sdk/webhooks';
 *
 * const handler = createWebhookHandler({
 *   on: {
 *     subscription_ended: async (event) => {
 *       await db.subscriptions.end(event.payload.subscription_code, event.payload.end_reason);
 *     },
 *     bank_account_updated: async (event) => {
 *       await db.bankAccounts.setStatus(event.payload.code, event.payload.status, event.payload.reason);
 *     },
 *   },
 *   onUnknown: async (event) => log.info('unhandled webhook', event.event),
 *   dedupe: true,
 *   verify: ({ headers }) => headers.get('x-webhook-secret') === process.env.WEBHOOK_SECRET,
 * });
 *
 * app.post('/webhooks/partner', handler.node); // Express
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions = {}): WebhookHandler {
  const maxBodyBytes = positiveInteger(
    'maxBodyBytes',
    options.maxBodyBytes,
    DEFAULT_MAX_BODY_BYTES,
  );
  const bodyTimeoutMs = positiveInteger(
    'bodyTimeoutMs',
    options.bodyTimeoutMs,
    DEFAULT_BODY_TIMEOUT_MS,
    MAX_TIMER_MS,
  );
  const handlerTimeoutMs = positiveInteger(
    'handlerTimeoutMs',
    options.handlerTimeoutMs,
    DEFAULT_HANDLER_TIMEOUT_MS,
    MAX_TIMER_MS,
  );
  const dedupeTtlMs = positiveInteger('dedupeTtlMs', options.dedupeTtlMs, DEFAULT_DEDUPE_TTL_MS);
  const maxBufferedBodyBytes = positiveInteger(
    'maxBufferedBodyBytes',
    options.maxBufferedBodyBytes,
    Math.max(DEFAULT_MAX_BUFFERED_BODY_BYTES, maxBodyBytes),
  );
  if (maxBufferedBodyBytes < maxBodyBytes) {
    throw new RangeError(
      `maxBufferedBodyBytes (${maxBufferedBodyBytes}) must be at least maxBodyBytes (${maxBodyBytes})`,
    );
  }
  const limits: BodyLimits = {
    maxBytes: maxBodyBytes,
    timeoutMs: bodyTimeoutMs,
    budget: new BodyBudget(maxBufferedBodyBytes),
  };
  const store = resolveStore(options.dedupe);
  const sink = options.logger ?? console;
  const log = createLogger(sink, options.logLevel ?? 'warn');
  if (!options.verify) {
    warnOnce(sink, 'no-verify', () =>
      log.warn(
        'webhook receiver created without verify: anyone who can reach its URL can deliver events' +
          (store
            ? ', and a forged delivery with a guessed request_id can make the real one look like a duplicate'
            : '') +
          ' (see docs/webhooks.md, "Authenticity")',
      ),
    );
  }
  const onError =
    options.onError ??
    ((error: unknown, event: WebhookEvent | undefined) =>
      log.error(`webhook ${event?.event ?? 'delivery'} failed`, error));
  const report = (error: unknown, event: WebhookEvent | undefined) => {
    const complain = (thrown: unknown) => log.error('webhook onError threw', thrown);
    try {
      const returned: unknown = onError(error, event);
      if (isThenable(returned)) returned.then(undefined, complain);
    } catch (thrown) {
      complain(thrown);
    }
  };
  const deliver = createDelivery({
    on: (options.on ?? {}) as DeliveryConfigOn,
    onUnknown: options.onUnknown,
    verify: options.verify,
    store,
    dedupeKey: options.dedupeKey ?? defaultDedupeKey,
    dedupeTtlMs,
    handlerTimeoutMs,
    report,
    log,
  });
  const tooLarge: Outcome = {
    status: 413,
    body: { error: 'payload_too_large', max_bytes: maxBodyBytes },
    // The rest of the body is not read, so the connection cannot carry another request.
    headers: { connection: 'close' },
  };
  const fromRead = (read: Exclude<BodyRead, Uint8Array>): Outcome => {
    if (read === TOO_LARGE) return tooLarge;
    if (read === TOO_SLOW) return TOO_SLOW_OUTCOME;
    if (read === OVER_BUDGET) {
      warnOnce(sink, 'over-budget', () =>
        log.warn(
          `webhook bodies being read at once reached maxBufferedBodyBytes (${maxBufferedBodyBytes}): deliveries past it are answered 503`,
        ),
      );
      return BUSY;
    }
    log.debug('webhook sender went away before the body ended');
    return INCOMPLETE;
  };

  const answerFetch = async (request: Request): Promise<Outcome> => {
    if (request.method !== 'POST') {
      request.body?.cancel().catch(() => {});
      return METHOD_NOT_ALLOWED;
    }
    const declared = declaredLength(request.headers.get('content-length'));
    if (declared !== undefined && declared > maxBodyBytes) {
      request.body?.cancel().catch(() => {});
      return tooLarge;
    }
    const read = await readWebBody(request.body, limits);
    if (!(read instanceof Uint8Array)) return fromRead(read);
    return deliver({ headers: request.headers, url: new URL(request.url), body: { raw: read } });
  };

  const answerNode = async (req: NodeWebhookRequest): Promise<Outcome | undefined> => {
    if (req.method !== 'POST') return METHOD_NOT_ALLOWED;
    const headers = toHeaders(req.headers);
    const declared = declaredLength(headers.get('content-length'));
    if (declared !== undefined && declared > maxBodyBytes) return tooLarge;
    const url = nodeUrl(req, headers);
    if (req.body !== undefined) return answerParsedNode(req.body, headers, url);
    const read = await readNodeBody(req, limits);
    if (read === ABORTED) {
      // Not the partner's failure, and nobody is left to answer.
      log.debug('webhook sender went away before the body ended');
      return undefined;
    }
    if (!(read instanceof Uint8Array)) return fromRead(read);
    return deliver({ headers, url, body: { raw: read } });
  };

  // A framework read the body first: bytes and text are the raw body, anything else parsed JSON.
  const answerParsedNode = (
    body: unknown,
    headers: Headers,
    url: URL,
  ): Promise<Outcome> | Outcome => {
    const raw =
      typeof body === 'string'
        ? new TextEncoder().encode(body)
        : body instanceof Uint8Array
          ? body
          : undefined;
    if (raw === undefined) return deliver({ headers, url, body: { parsed: body } });
    return raw.byteLength > maxBodyBytes ? tooLarge : deliver({ headers, url, body: { raw } });
  };

  const fetch = async (request: Request): Promise<Response> => {
    let outcome: Outcome;
    try {
      outcome = await answerFetch(request);
    } catch (error) {
      report(error, undefined);
      outcome = FAILED;
    }
    return Response.json(outcome.body, { status: outcome.status, headers: outcome.headers });
  };

  const node = async (req: NodeWebhookRequest, res: NodeWebhookResponse): Promise<void> => {
    let outcome: Outcome | undefined;
    try {
      outcome = await answerNode(req);
    } catch (error) {
      report(error, undefined);
      outcome = FAILED;
    }
    if (outcome === undefined) return;
    try {
      writeNode(res, outcome);
    } catch (error) {
      // The response cannot be written (the connection is gone): nothing else to do.
      log.debug('webhook answer could not be written', error);
    }
  };

  return { fetch, node };
}

type DeliveryConfigOn = Parameters<typeof createDelivery>[0]['on'];

function writeNode(res: NodeWebhookResponse, outcome: Outcome): void {
  if (res.headersSent) return;
  res.statusCode = outcome.status;
  for (const [name, value] of Object.entries(outcome.headers ?? {})) res.setHeader(name, value);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(outcome.body));
}

/** The longest delay a timer can wait (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

function positiveInteger(
  name: string,
  value: number | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const chosen = value ?? fallback;
  if (!Number.isSafeInteger(chosen) || chosen < 1 || chosen > max) {
    throw new RangeError(`${name} must be a positive integer up to ${max}, got ${chosen}`);
  }
  return chosen;
}

function resolveStore(dedupe: WebhookHandlerOptions['dedupe']): WebhookDedupeStore | undefined {
  if (dedupe === undefined || dedupe === false) return undefined;
  if (dedupe === true) return new MemoryDedupeStore();
  if (isDedupeStore(dedupe)) return dedupe;
  throw new TypeError(
    'dedupe must be true, false or a WebhookDedupeStore with claim, complete and release ' +
      '(the { has, add } shape is not supported: it cannot claim a delivery atomically)',
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function nodeUrl(req: NodeWebhookRequest, headers: Headers): URL {
  const path = req.originalUrl ?? req.url ?? '/';
  for (const base of [`http://${headers.get('host') ?? 'localhost'}`, 'http://localhost']) {
    try {
      return new URL(path, base);
    } catch {
      // A Host header or path no URL can hold: try without it.
    }
  }
  return new URL('http://localhost/');
}

function toHeaders(nodeHeaders: NodeWebhookRequest['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(nodeHeaders)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      try {
        headers.append(name, item);
      } catch {
        // A header the Fetch API refuses (Node accepts a wider set): verify cannot use it anyway.
      }
    }
  }
  return headers;
}
