/**
 * {@link createWebhookHandler}: the receiver a partner mounts at its webhook URL. It reads the body
 * within a size bound, checks authenticity (when told how), parses the event, runs the partner's
 * handler and answers 200 only once that handler succeeded, so the sender redelivers anything
 * that was not handled. Redeliveries of a handled event are acknowledged without running it again.
 *
 * @module
 */

import {
  BodyAbortedError,
  declaredLength,
  type NodeWebhookRequest,
  readNodeBody,
  readWebBody,
  TOO_LARGE,
} from './body';
import type { WebhookDedupeStore } from './dedupe';
import { createDelivery, type Deliver, FAILED, METHOD_NOT_ALLOWED, type Outcome } from './delivery';
import type {
  GenericWebhookEvent,
  KnownWebhookEvent,
  KnownWebhookEventName,
  WebhookEvent,
} from './events';

export type { NodeWebhookRequest } from './body';

// Method syntax keeps parameters bivariant, so a handler typed for one event fits the index signature.
/**
 * A handler for one event: may be async; the delivery is acknowledged once it resolves.
 *
 * @inline
 */
type EventHandler<E> = { handle(event: E): unknown }['handle'];

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
  onUnknown?: (event: WebhookEvent) => unknown;
  /**
   * Skip redeliveries of an event already handled: `true` for a {@link MemoryDedupeStore} of
   * 10,000 keys, or your own {@link WebhookDedupeStore} (Redis, a database). Off by default.
   */
  dedupe?: boolean | WebhookDedupeStore;
  /**
   * The key that identifies one delivery for `dedupe`; `undefined` or `null` means never dedupe
   * this event. Default: {@link defaultDedupeKey}, the event name and `metadata.request_id`.
   */
  dedupeKey?: (event: WebhookEvent) => string | null | undefined;
  /**
   * Decides whether a delivery is authentic; `false` answers 401 before the body is parsed. The
   * spec does not define how deliveries are authenticated (no signature or secret is shown), so
   * this is where a partner checks a shared secret in the URL or a header, or an allow-list.
   */
  verify?: (input: WebhookVerifyInput) => boolean | Promise<boolean>;
  /** The largest body accepted, in bytes; larger ones get 413 without being read. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Told about every failure answered 500 (a handler, `verify` or the dedupe store threw) and about
   * a dedupe store that failed to remember a handled delivery (answered 200). Default: `console.error`.
   */
  onError?: (error: unknown, event: WebhookEvent | undefined) => void;
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

/**
 * Creates the receiver for the service's webhook deliveries (spec §6), to mount at the URL
 * configured for the client. For each delivery it answers:
 *
 * - 200 once the event's handler resolved (or when nothing handles that event, or for an
 *   already-handled redelivery when `dedupe` is on);
 * - 400 when the body is not a valid event (see {@link parseWebhookEvent});
 * - 401 when `verify` returns false;
 * - 405 (with `Allow: POST`) for any method but POST;
 * - 413 when the body is over `maxBodyBytes` (default 1 MiB), decided from `Content-Length` when
 *   sent and otherwise while reading, never holding more than the bound;
 * - 500, with no detail, when the handler (or `verify`, or the dedupe store) throws, so that the
 *   sender delivers the event again.
 *
 * With `dedupe`, a delivery is remembered only after its handler succeeded, and a duplicate that
 * arrives while the first is still running waits for it and gets the same answer.
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
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new RangeError(`maxBodyBytes must be a positive integer, got ${maxBodyBytes}`);
  }
  const tooLarge: Outcome = {
    status: 413,
    body: { error: 'payload_too_large', max_bytes: maxBodyBytes },
    // The rest of the body is not read, so the connection cannot carry another request.
    headers: { connection: 'close' },
  };
  const { deliver, onError } = createDelivery(options);

  const fetch = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') {
      request.body?.cancel().catch(() => {});
      return toResponse(METHOD_NOT_ALLOWED);
    }
    const declared = declaredLength(request.headers.get('content-length'));
    if (declared !== undefined && declared > maxBodyBytes) {
      request.body?.cancel().catch(() => {});
      return toResponse(tooLarge);
    }
    let body: Uint8Array | typeof TOO_LARGE;
    try {
      body = await readWebBody(request.body, maxBodyBytes);
    } catch {
      // The body stream failed (the sender went away mid-body): nothing complete to handle.
      return toResponse({ status: 400, body: { error: 'incomplete_body' } });
    }
    if (body === TOO_LARGE) return toResponse(tooLarge);
    return toResponse(await deliver(request.headers, { raw: body }));
  };

  const node = async (req: NodeWebhookRequest, res: NodeWebhookResponse): Promise<void> => {
    let outcome: Outcome;
    try {
      outcome = await answerNode(req, maxBodyBytes, tooLarge, deliver);
    } catch (error) {
      if (error instanceof BodyAbortedError) return;
      onError(error, undefined);
      outcome = FAILED;
    }
    if (res.headersSent) return;
    res.statusCode = outcome.status;
    for (const [name, value] of Object.entries(outcome.headers ?? {})) res.setHeader(name, value);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(outcome.body));
  };

  return { fetch, node };
}

async function answerNode(
  req: NodeWebhookRequest,
  maxBodyBytes: number,
  tooLarge: Outcome,
  deliver: Deliver,
): Promise<Outcome> {
  if (req.method !== 'POST') return METHOD_NOT_ALLOWED;
  const headers = toHeaders(req.headers);
  const declared = declaredLength(headers.get('content-length'));
  if (declared !== undefined && declared > maxBodyBytes) return tooLarge;
  if (req.body !== undefined) {
    // A framework read the body first: bytes and text are the raw body, anything else parsed JSON.
    const raw =
      typeof req.body === 'string'
        ? new TextEncoder().encode(req.body)
        : req.body instanceof Uint8Array
          ? req.body
          : undefined;
    if (raw === undefined) return deliver(headers, { parsed: req.body });
    return raw.byteLength > maxBodyBytes ? tooLarge : deliver(headers, { raw });
  }
  const raw = await readNodeBody(req, maxBodyBytes);
  return raw === TOO_LARGE ? tooLarge : deliver(headers, { raw });
}

function toResponse(outcome: Outcome): Response {
  return Response.json(outcome.body, { status: outcome.status, headers: outcome.headers });
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
