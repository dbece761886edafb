/**
 * The base of every error the SDK throws, and what makes `instanceof` work across the ESM and CJS
 * copies of the package (a partner's app can load both): each class carries a registered brand and
 * `Symbol.hasInstance` compares brands along the prototype chain instead of object identity.
 */

import { shortened } from '../../shared/cut-text';
import { redactText } from '../logging/redact';

const BRAND = Symbol.for('partner-sdk.error.brand');
const BRAND_PREFIX = 'partner-sdk.';

/** Marks `target` with its own brand; subclasses get theirs so a parent never matches a child's check. */
/** @internal */
export function brand(target: object, name: string): void {
  Object.defineProperty(target, BRAND, { value: `${BRAND_PREFIX}${name}` });
}

/**
 * The name a class was branded with: what `err.name` says, since a partner's bundler that
 * minifies (a Lambda's deploy step) renames the class itself. A partner's own subclass has none.
 */
function brandedName(target: object): string | undefined {
  const branded = Object.hasOwn(target, BRAND) ? (target as Record<symbol, unknown>)[BRAND] : '';
  return typeof branded === 'string' && branded.startsWith(BRAND_PREFIX)
    ? branded.slice(BRAND_PREFIX.length)
    : undefined;
}

function hasBrand(value: unknown, wanted: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (let proto = Object.getPrototypeOf(value); proto; proto = Object.getPrototypeOf(proto)) {
    const ctor = proto.constructor;
    if (ctor && Object.hasOwn(ctor, BRAND) && ctor[BRAND] === wanted) return true;
  }
  return false;
}

/** One problem found by a zod schema, as kept on validation errors (path and message). */
export interface ValidationIssue {
  /** Where in the value the problem is, e.g. `['phones', 0, 'number']`. */
  readonly path: ReadonlyArray<PropertyKey>;
  /** What is wrong, in words. */
  readonly message: string;
  /** zod's machine-readable code, e.g. `too_big`. */
  readonly code: string;
}

/**
 * Base class of the errors the SDK throws for a call, a wait, a webhook delivery, a bulk job or a
 * shared store; the other entry points' classes (`JournalLockedError`, `RedisStoreError`,
 * `WebhookTimeoutError`…) extend it too. A value of the wrong form given outside a call (a
 * webhook handler's options, `parseTimestamp`'s input, a `toArray` limit) is a `TypeError` or
 * `RangeError` instead, as the `@throws` of each says.
 *
 * @example
 * ```ts
 * try {
 *   await client.products.retrieve('prd_123');
 * } catch (err) {
 *   if (err instanceof PartnerError) console.error(err.message);
 * }
 * ```
 */
export class PartnerError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(redactText(message), options);
    this.name = brandedName(new.target) ?? new.target.name;
  }

  /**
   * What `JSON.stringify(err)` writes, as a structured logger or an error report does: the name,
   * the message (an Error's own is not enumerable, so it would be left out) and every field, with
   * `headers` as a plain object (a `Headers` writes as `{}`) and `cause` (an error that is not the
   * SDK's as its name, message, `code` and own cause). Secrets are redacted as on the error. What
   * it returns survives `structuredClone` (a worker thread's `postMessage`), which the error itself
   * does not: the clone of an `Error` keeps its message, not its class or fields.
   *
   * @example
   * ```ts
   * try {
   *   await client.products.retrieve('prd_8Gx2');
   * } catch (err) {
   *   if (err instanceof PartnerError) console.log(JSON.stringify(err)); // {"name":"NotFoundError","message":"GET /products/prd_8Gx2 → 404 Not Found…",…}
   *   else throw err;
   * }
   * ```
   */
  toJSON(): Record<string, unknown> {
    const written: Record<string, unknown> = { name: this.name, message: this.message };
    // Met again along its own causes: the name and message close the loop.
    if (beingWritten.has(this)) return written;
    beingWritten.add(this);
    try {
      for (const [key, value] of Object.entries(this)) {
        if (value instanceof Headers) written[key] = Object.fromEntries(value);
        else written[key] = value instanceof Error ? asJSON(value, 0) : value;
      }
      // The Error constructor makes `cause` not enumerable, yet it is what a connection failure,
      // an abort or an unknown outcome is about: it is written too.
      if (this.cause !== undefined) written.cause = asJSON(this.cause, 0);
    } finally {
      beingWritten.delete(this);
    }
    return written;
  }
}

/** The errors whose `toJSON` is running, so a cause that leads back to one ends there. */
const beingWritten = new WeakSet<object>();

/** How deep a chain of causes is written: fetch's own nests the system error two levels down. */
const MAX_CAUSE_DEPTH = 4;

/**
 * An error or a cause as JSON can hold it: an error of the SDK as its own `toJSON`; any other
 * error (which `JSON.stringify` writes as `{}`) as its name, message, `code` and cause; text
 * redacted, since a runtime's error or a signal's reason may quote a header; anything else as it is.
 */
function asJSON(value: unknown, depth: number): unknown {
  if (!(value instanceof Error)) return typeof value === 'string' ? redactText(value) : value;
  if (value instanceof PartnerError) return value.toJSON();
  const written: Record<string, unknown> = { name: value.name, message: redactText(value.message) };
  const { code } = value as { code?: unknown };
  if (typeof code === 'string' || typeof code === 'number') written.code = code;
  if (value.cause !== undefined && depth < MAX_CAUSE_DEPTH) {
    written.cause = asJSON(value.cause, depth + 1);
  }
  return written;
}
// Defined outside the class body: bundlers rewrite `this` inside static methods to the class name,
// which would make every subclass check the base brand. A class without a brand of its own (a
// partner's subclass) is checked as `instanceof` does by default: the brand it inherits would make
// every error of the SDK one of its instances.
Object.defineProperty(PartnerError, Symbol.hasInstance, {
  value: function hasInstance(this: object, value: unknown): boolean {
    if (!Object.hasOwn(this, BRAND)) {
      return Function.prototype[Symbol.hasInstance].call(this, value);
    }
    return hasBrand(value, (this as Record<symbol, unknown>)[BRAND]);
  },
});
brand(PartnerError, 'PartnerError');

/** How a request is named in messages and on errors: its method and the path under `baseUrl`. */
export interface RequestIdentity {
  /** HTTP method, upper case. */
  readonly method: string;
  /** Path relative to `baseUrl` (or the absolute URL for a call outside it), without the query. */
  readonly path: string;
}

/** The longest path a message shows whole: a path parameter has no length the spec bounds. */
const MAX_SHOWN_PATH = 200;

/**
 * @internal How messages name a request: `GET /products/prd_1`. A path longer than a message
 * should carry (a megabyte pasted as a hash) is cut, its length said; `path` on the error stays whole.
 */
export function requestLine({ method, path }: RequestIdentity): string {
  if (path.length <= MAX_SHOWN_PATH) return `${method} ${path}`;
  let characters = 0;
  for (const _ of path) characters++;
  return `${method} ${shortened(path, MAX_SHOWN_PATH)} (a path of ${characters} characters)`;
}

/** @internal The first issues, for a message. */
export function describeIssues(issues: ReadonlyArray<ValidationIssue>): string {
  const shown = issues
    .slice(0, 3)
    .map(
      (issue) =>
        `${issue.path.length ? `${issue.path.map(String).join('.')}: ` : ''}${issue.message}`,
    );
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return `${shown.join('; ')}${more}`;
}

/** @internal A status, for a message. */
export function describeStatus(status: unknown): string {
  if (status === undefined) return 'none seen';
  return typeof status === 'string' ? status : JSON.stringify(status);
}

/**
 * Reason phrases of the statuses an answer can end a call with (RFC 9110 and the IANA registry: a
 * success of the wrong shape, a redirect that could not be followed, every error status), for
 * messages. A fixed table rather than the answer's own `statusText`, which HTTP/2 never carries.
 * 520 to 526 are registered nowhere: they are Cloudflare's, named as it names them, since a
 * partner meets them only from a Cloudflare in front of the service and a bare `Server Error` says
 * nothing of which side failed.
 */
const REASON_PHRASES: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  206: 'Partial Content',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  305: 'Use Proxy',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a Teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  511: 'Network Authentication Required',
  520: 'Web Server Returned an Unknown Error',
  521: 'Web Server Is Down',
  522: 'Connection Timed Out',
  523: 'Origin Is Unreachable',
  524: 'A Timeout Occurred',
  525: 'SSL Handshake Failed',
  526: 'Invalid SSL Certificate',
};

/**
 * A status as a message says it, with its reason phrase for a reader who does not know every
 * code: `422 Unprocessable Entity`, `599 Server Error`.
 *
 * @internal
 */
export function statusLine(status: number): string {
  const phrase =
    REASON_PHRASES[status] ??
    (status >= 500 ? 'Server Error' : status >= 400 ? 'HTTP Error' : undefined);
  return phrase ? `${status} ${phrase}` : String(status);
}

/** @internal An error's message, or the value itself, for another error's message. */
export function errorSummary(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
