/**
 * {@link createWebhookHandler}: the receiver a partner mounts at its webhook URL. It reads the body
 * within a size bound, checks authenticity (when told how), parses the event, runs the partner's
 * handler and answers 200 only once that handler succeeded, so the sender redelivers anything
 * that was not handled. Redeliveries of a handled event are acknowledged without running it again.
 *
 * @module
 */

import { createAnswers } from './answers';
import type { NodeWebhookRequest } from './body';
import { createDelivery } from './delivery';
import type { parseWebhookEvent } from './events';
import type { WebhookHandlerOptions } from './options';
import { FAILED, type Outcome } from './outcomes';
import { resolveSettings } from './settings';
import { tracedDelivery } from './telemetry';

export type { NodeWebhookRequest } from './body';
export type {
  WebhookHandlerContext,
  WebhookHandlerOptions,
  WebhookHandlers,
  WebhookVerifyInput,
} from './options';

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
   * `req.body` when a framework already read it (`express.json()`, `express.raw()`, `express.text()`),
   * its bytes as sent from `req.rawBody` when the framework kept them there (NestJS's `rawBody: true`).
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
 * - 415 (with `Accept-Encoding: identity`) for a compressed body, which is never inflated;
 * - 500, with no detail, when the handler (or `verify`, `dedupeKey`, the dedupe store) throws or
 *   outlives `handlerTimeoutMs` (default 30 s), or when `verify` returns anything but a boolean,
 *   so that the sender delivers the event again;
 * - 503 with `Retry-After: 5` when `dedupe` finds the same delivery being handled by another
 *   receiver sharing the store: the sender delivers again later and gets 200 as a duplicate.
 *
 * With `dedupe`, the receiver claims a delivery in the store before running its handler, marks it
 * handled after the handler succeeded and releases the claim when it failed, so the redelivery runs
 * it; a duplicate that arrives in this process while the first is still running waits for it and
 * gets the same answer.
 *
 * Every number option is a positive whole number (`bodyTimeoutMs` and `handlerTimeoutMs` at most
 * 2 147 483 647 ms, the longest a timer waits).
 *
 * @throws {RangeError} a number option out of that range, or `maxBufferedBodyBytes` below
 *   `maxBodyBytes`.
 * @throws {TypeError} a `dedupe` that is not `true`, `false` or a store, an `on` that is not a
 *   plain object (a class instance, a `Map`), a handler or hook that is not a function, or an
 *   unknown `logLevel`.
 * @example
 * ```ts
 * import { createWebhookHandler, secretVerifier } from 'partner-sdk/webhooks';
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
 *   verify: secretVerifier({ secret: process.env.WEBHOOK_SECRET, header: 'x-webhook-secret' }),
 * });
 *
 * app.post('/webhooks/partner', handler.node); // Express
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions = {}): WebhookHandler {
  const settings = resolveSettings(options);
  const { report } = settings.delivery;
  const delivery = createDelivery(settings.delivery);
  const answers = createAnswers(settings, tracedDelivery(delivery, options.telemetry));

  const fetch = async (request: Request): Promise<Response> => {
    let outcome: Outcome;
    try {
      outcome = await answers.fetch(request);
    } catch (error) {
      report(error, undefined);
      outcome = FAILED;
    }
    return Response.json(outcome.body, { status: outcome.status, headers: outcome.headers });
  };

  const node = async (req: NodeWebhookRequest, res: NodeWebhookResponse): Promise<void> => {
    let outcome: Outcome | undefined;
    try {
      outcome = await answers.node(req);
    } catch (error) {
      report(error, undefined);
      outcome = FAILED;
    }
    if (outcome === undefined) return;
    try {
      writeNode(res, outcome);
    } catch (error) {
      // The response cannot be written (the connection is gone): nothing else to do.
      settings.log.debug('webhook answer could not be written', error);
    }
  };

  return { fetch, node };
}

function writeNode(res: NodeWebhookResponse, outcome: Outcome): void {
  if (res.headersSent) return;
  res.statusCode = outcome.status;
  for (const [name, value] of Object.entries(outcome.headers ?? {})) res.setHeader(name, value);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(outcome.body));
}
