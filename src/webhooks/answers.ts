/**
 * From a request to an {@link Outcome}: the method and size checks, reading the body within its
 * limits (or taking the one a framework read), then the delivery. One function per face.
 *
 * @module
 */

import {
  ABORTED,
  type BodyRead,
  declaredLength,
  type NodeWebhookRequest,
  OVER_BUDGET,
  readNodeBody,
  readWebBody,
  TOO_LARGE,
  TOO_SLOW,
} from './body';
import type { DeliveryConfig, DeliveryInput } from './delivery';
import {
  BUSY,
  FAILED,
  INCOMPLETE,
  METHOD_NOT_ALLOWED,
  type Outcome,
  TOO_SLOW_OUTCOME,
  UNVERIFIED_LINE,
} from './outcomes';
import { readsNoBody, type secretVerifier } from './secret';
import type { ReceiverSettings } from './settings';
import { warnOnce } from './warn-once';

/** How each face turns a request into an answer; `undefined` when nobody is left to answer. */
export interface Answers {
  fetch(request: Request): Promise<Outcome>;
  node(req: NodeWebhookRequest): Promise<Outcome | undefined>;
}

/**
 * Builds the two faces' request handling over `deliver`.
 *
 * @example
 * ```ts
 * const answers = createAnswers(settings, createDelivery(settings.delivery));
 * const outcome = await answers.fetch(request);
 * ```
 */
export function createAnswers(
  settings: ReceiverSettings,
  deliver: (input: DeliveryInput) => Promise<Outcome>,
): Answers {
  const { limits } = settings;
  const tooLarge: Outcome = {
    status: 413,
    body: { error: 'payload_too_large', max_bytes: limits.maxBytes },
    // The rest of the body is not read, so the connection cannot carry another request.
    headers: { connection: 'close' },
  };
  const receiver: Receiver = {
    settings,
    deliver,
    tooLarge,
    refused: refusals(settings, tooLarge),
    overBound: (headers) => (declaredLength(headers.get('content-length')) ?? 0) > limits.maxBytes,
    forged: unreadRefusal(settings.delivery.verify, settings.log),
  };
  return {
    fetch: (request) => answerFetch(receiver, request),
    node: (req) => answerNode(receiver, req),
  };
}

/** What both faces check a delivery with, built once per receiver. */
interface Receiver {
  settings: ReceiverSettings;
  deliver: (input: DeliveryInput) => Promise<Outcome>;
  /** 413, naming the bound. */
  tooLarge: Outcome;
  /** The answer to a body that could not be read whole. */
  refused: ReturnType<typeof refusals>;
  /** Whether `Content-Length` already says the body is over the bound. */
  overBound: (headers: Headers) => boolean;
  /** Whether the delivery lacks the secret a `secretVerifier` checks before the body is read. */
  forged: ReturnType<typeof unreadRefusal>;
}

/** The Fetch face: answers what can be answered unread, then reads the body and delivers it. */
async function answerFetch(receiver: Receiver, request: Request): Promise<Outcome> {
  const url = new URL(request.url);
  const early =
    request.method !== 'POST'
      ? METHOD_NOT_ALLOWED
      : receiver.forged(request.headers, url)
        ? REFUSED_UNREAD
        : receiver.overBound(request.headers)
          ? receiver.tooLarge
          : encoded(request.headers)
            ? ENCODED
            : undefined;
  if (early) {
    request.body?.cancel().catch(() => {});
    return early;
  }
  if (request.bodyUsed || request.body?.locked) {
    // Not the sender's fault, so not a 400: the redelivery is handled once the mount is fixed.
    receiver.settings.delivery.report(new TypeError(CONSUMED_FETCH), undefined);
    return FAILED;
  }
  const read = await readWebBody(request.body, receiver.settings.limits);
  if (!(read instanceof Uint8Array)) return receiver.refused(read);
  return receiver.deliver({ headers: request.headers, url, body: { raw: read } });
}

/**
 * The Node.js face: the same checks, and a body a framework may have read already; `undefined`
 * when the sender went away and nobody is left to answer.
 */
async function answerNode(
  receiver: Receiver,
  req: NodeWebhookRequest,
): Promise<Outcome | undefined> {
  const { settings, deliver, tooLarge } = receiver;
  if (req.method !== 'POST') return METHOD_NOT_ALLOWED;
  const headers = toHeaders(req.headersDistinct ?? req.headers);
  const url = nodeUrl(req, headers);
  if (receiver.forged(headers, url)) return REFUSED_UNREAD;
  if (receiver.overBound(headers)) return tooLarge;
  if (parsedByFramework(req)) {
    const raw = frameworkBytes(req.body) ?? keptBytes(req.rawBody);
    if (raw === undefined) return deliver({ headers, url, body: { parsed: req.body } });
    return raw.byteLength > settings.limits.maxBytes
      ? tooLarge
      : deliver({ headers, url, body: { raw } });
  }
  if (encoded(headers)) return ENCODED;
  if (req.readableEnded && declaresBody(headers)) {
    // Not the sender's fault, so not a 400: the redelivery is handled once the mount is fixed.
    settings.delivery.report(new TypeError(CONSUMED), undefined);
    return FAILED;
  }
  const read = await readNodeBody(req, settings.limits);
  if (read === ABORTED) {
    // Not the partner's failure, and nobody is left to answer.
    settings.log.debug('webhook sender went away before the body ended');
    return undefined;
  }
  if (!(read instanceof Uint8Array)) return receiver.refused(read);
  return deliver({ headers, url, body: { raw: read } });
}

/**
 * 415 for a compressed body. Deliveries are plain JSON (spec §6 names no other header than
 * `Content-Type`), and inflating a body is how a small upload becomes an endless one: the body is
 * not read, and the sender is told what to send instead.
 */
const ENCODED: Outcome = {
  status: 415,
  body: {
    error: 'unsupported_content_encoding',
    message: 'webhook bodies are read as sent: send them without Content-Encoding',
  },
  headers: { 'accept-encoding': 'identity', connection: 'close' },
};

function encoded(headers: Headers): boolean {
  const coding = headers.get('content-encoding')?.trim().toLowerCase();
  return coding !== undefined && coding !== '' && coding !== 'identity';
}

/** 401 before the body is read: the rest of it is not read, so the connection closes. */
const REFUSED_UNREAD: Outcome = {
  status: 401,
  body: { error: 'unauthorized' },
  headers: { connection: 'close' },
};

/**
 * For a `verify` that needs no body ({@link secretVerifier}'s): whether it refuses a request from
 * its URL and headers alone, so a sender without the secret never has its body read, nor takes
 * any of the bytes the receiver may hold for bodies being read. Any other `verify` runs once the
 * body is read.
 */
function unreadRefusal(
  verify: DeliveryConfig['verify'],
  log: ReceiverSettings['log'],
): (headers: Headers, url: URL) => boolean {
  if (!verify || !readsNoBody(verify)) return () => false;
  return (headers, url) => {
    try {
      const refused = verify({ rawBody: undefined, body: '', headers, url }) === false;
      if (refused) log.warn(UNVERIFIED_LINE);
      return refused;
    } catch {
      // Left to the check after the body, which reports what it threw.
      return false;
    }
  };
}

const CONSUMED =
  'the webhook request body was already read (by a framework or a middleware) and req.body does not hold it: mount handler.node before any body parser, or set req.body to the body that was read (its raw bytes, for verify to see them); on Fastify or Koa, see docs/webhooks.md, "On Fastify, Koa and NestJS"';

const CONSUMED_FETCH =
  'the webhook request body was already read (by a middleware) before handler.fetch got the Request: mount the webhook handler before any middleware that reads the body, or pass it a new Request with the bytes that were read';

/** Whether the request says it carries a body: a `Content-Length` above zero, or a chunked one. */
function declaresBody(headers: Headers): boolean {
  return (
    (declaredLength(headers.get('content-length')) ?? 0) > 0 || headers.has('transfer-encoding')
  );
}

/**
 * Whether a framework read the body into `req.body`. Express 4's body parsers set `req.body` to
 * `{}` before they look at the `Content-Type`, and leave the stream unread when it is not theirs
 * (a JSON delivery under `urlencoded()` alone): that empty object is no body, the stream is.
 */
function parsedByFramework(req: NodeWebhookRequest): boolean {
  const { body } = req;
  if (body === undefined) return false;
  const unreadPlaceholder =
    req.readableEnded === false &&
    body !== null &&
    typeof body === 'object' &&
    Object.getPrototypeOf(body) === Object.prototype &&
    Object.keys(body).length === 0;
  return !unreadPlaceholder;
}

/** The answer to a body that could not be read whole. */
function refusals(
  { log, sink, maxBufferedBodyBytes }: ReceiverSettings,
  tooLarge: Outcome,
): (read: Exclude<BodyRead, Uint8Array>) => Outcome {
  return (read) => {
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
}

/** A body a framework read first: bytes and text are the raw body, anything else parsed JSON. */
function frameworkBytes(body: unknown): Uint8Array | undefined {
  if (typeof body === 'string') return new TextEncoder().encode(body);
  return body instanceof Uint8Array ? body : undefined;
}

/**
 * The bytes a framework kept beside the JSON it parsed (NestJS's `rawBody: true`, or an
 * `express.json({ verify })` that stores its buffer): the body as sent, for `verify` to check.
 */
function keptBytes(rawBody: unknown): Uint8Array | undefined {
  return rawBody instanceof Uint8Array ? rawBody : undefined;
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

/**
 * The request's headers as Fetch `Headers`, from every value received: Node.js keeps only the first
 * of a repeated `Authorization` (and of a few others) in `req.headers`, so its `headersDistinct`
 * is read where it has one, and a header sent twice reads as sent twice, as it does on `.fetch`.
 */
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
