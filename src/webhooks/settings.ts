/**
 * Turning {@link WebhookHandlerOptions} into the checked settings a receiver runs with: limits
 * with their defaults, the dedupe store, the logger, and an `onError` that can never throw.
 *
 * @module
 */

import {
  createLogger,
  type Logger,
  type LogLevel,
  missingLoggerMethods,
  parseLogLevel,
  type SdkLogger,
} from '../core/logging/logger';
import { MAX_TIMER_MS } from '../core/time/clock';
import { BodyBudget, type BodyLimits } from './body';
import { defaultDedupeKey, isDedupeStore, type WebhookDedupeStore } from './dedupe';
import type { DeliveryConfig } from './delivery';
import type { WebhookEvent } from './events';
import { MemoryDedupeStore } from './memory-dedupe-store';
import type { WebhookHandlerOptions } from './options';
import { nearSpecEventName, shownEventName } from './shown-event-name';
import { claimsOverSimpleStore, isSimpleDedupeStore } from './simple-dedupe-store';
import { warnOnce } from './warn-once';

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_BODY_TIMEOUT_MS = 10_000;
const DEFAULT_HANDLER_TIMEOUT_MS = 30_000;
const DEFAULT_DEDUPE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const DEFAULT_MAX_BUFFERED_BODY_BYTES = 64 * 1024 * 1024;

/** What a receiver runs with, every option checked and defaulted. */
export interface ReceiverSettings {
  /** The bounds on reading each body, and the budget all reads share. */
  limits: BodyLimits;
  /** The most bytes the bodies being read at once may hold together. */
  maxBufferedBodyBytes: number;
  /** What the part after the body needs. */
  delivery: DeliveryConfig;
  /** The receiver's logger, levelled and redacting. */
  log: SdkLogger;
  /** The object the partner gave as `logger` (or `console`): warnings are given once per sink. */
  sink: object;
}

/**
 * Checks and defaults every option of a receiver, and warns (once per logger) when it has no
 * `verify`.
 *
 * @throws {RangeError} for a limit that is not a positive integer (or a timer past 2^31 - 1 ms).
 * @throws {TypeError} for a `dedupe` that is not `true`, `false`, a {@link WebhookDedupeStore} or a
 *   `SimpleDedupeStore`, an `on` that is not a plain object, a handler or hook that is not a
 *   function, a `logger` without console's
 *   four methods, or an unknown `logLevel`.
 *
 * @example
 * ```ts
 * const settings = resolveSettings({ on, dedupe: true, verify });
 * ```
 */
export function resolveSettings(options: WebhookHandlerOptions): ReceiverSettings {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createWebhookHandler: the options must be an object.');
  }
  const { limits, maxBufferedBodyBytes, handlerTimeoutMs, dedupeTtlMs } = resolveLimits(options);
  const store = resolveStore(options.dedupe);
  checkFunctions(options);
  const sink = options.logger === undefined ? console : checkLogger(options.logger);
  const log = createLogger(sink, readLogLevel(options.logLevel));
  if (!options.verify) {
    warnOnce(sink, 'no-verify', () =>
      log.warn(
        'webhook receiver created without verify: anyone who can reach its URL can deliver events' +
          (store
            ? ', and a forged delivery with a guessed request_id can make the real one look like a duplicate'
            : '') +
          ' (pass verify: secretVerifier({ secret, query }) for a secret in the registered URL; see docs/webhooks.md, "Authenticity")',
      ),
    );
  }
  warnAboutNearNames(options.on, sink, log);
  const delivery: DeliveryConfig = {
    on: (options.on ?? {}) as DeliveryConfig['on'],
    onUnknown: options.onUnknown,
    verify: options.verify,
    store,
    dedupeKey: options.dedupeKey ?? defaultDedupeKey,
    dedupeTtlMs,
    handlerTimeoutMs,
    report: safeReporter(options.onError, log),
    log,
  };
  return { limits, maxBufferedBodyBytes, delivery, log, sink };
}

/**
 * `on` takes any name (the spec shows few, §6), so a handler under a near-miss of a name it shows
 * (`subscription.ended`) compiles and never runs: said once per logger and name, when the
 * receiver is made.
 */
function warnAboutNearNames(on: WebhookHandlerOptions['on'], sink: object, log: SdkLogger): void {
  for (const name of Object.keys(on ?? {})) {
    const meant = nearSpecEventName(name);
    if (!meant) continue;
    // shownEventName quotes (and cuts) a name it cannot show as it is: quoted here either way.
    const shown = shownEventName(name);
    const quoted = shown.startsWith('"') ? shown : JSON.stringify(shown);
    warnOnce(sink, `near-name:${name}`, () =>
      log.warn(
        `webhook handler on[${quoted}] is for no event the spec names, so it never runs: did you mean "${meant}"?`,
      ),
    );
  }
}

/**
 * A logger short of one of console's methods (a string, an object missing `debug`) would swallow
 * that level's lines, failures included: refused at creation, as the client refuses it.
 */
function checkLogger(logger: unknown): Logger {
  const missing = missingLoggerMethods(logger);
  if (missing.length > 0) {
    throw new TypeError(
      `\`logger\` must have console's methods error, warn, info and debug (${missing.join(', ')} missing).`,
    );
  }
  return logger as Logger;
}

/**
 * `logLevel` read as the client reads its own, whatever its case (a value from the environment);
 * an unknown one is refused, as it would otherwise let every line through, debug included.
 */
function readLogLevel(logLevel: LogLevel | undefined): LogLevel {
  if (logLevel === undefined) return 'warn';
  const level = parseLogLevel(logLevel);
  if (level === undefined) {
    throw new TypeError(
      `\`logLevel\` must be 'off', 'error', 'warn', 'info' or 'debug', got ${String(logLevel)}`,
    );
  }
  return level;
}

function resolveLimits(options: WebhookHandlerOptions) {
  const maxBodyBytes = positiveInteger(
    'maxBodyBytes',
    options.maxBodyBytes,
    DEFAULT_MAX_BODY_BYTES,
  );
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
  const timeoutMs = positiveInteger(
    'bodyTimeoutMs',
    options.bodyTimeoutMs,
    DEFAULT_BODY_TIMEOUT_MS,
    MAX_TIMER_MS,
  );
  return {
    limits: { maxBytes: maxBodyBytes, timeoutMs, budget: new BodyBudget(maxBufferedBodyBytes) },
    maxBufferedBodyBytes,
    handlerTimeoutMs: positiveInteger(
      'handlerTimeoutMs',
      options.handlerTimeoutMs,
      DEFAULT_HANDLER_TIMEOUT_MS,
      MAX_TIMER_MS,
    ),
    dedupeTtlMs: positiveInteger('dedupeTtlMs', options.dedupeTtlMs, DEFAULT_DEDUPE_TTL_MS),
  };
}

/** Tells `onError` (default: an error line), and logs whatever `onError` throws or rejects with. */
function safeReporter(
  onError: WebhookHandlerOptions['onError'],
  log: SdkLogger,
): DeliveryConfig['report'] {
  const tell =
    onError ??
    ((error: unknown, event: WebhookEvent | undefined) =>
      log.error(`webhook ${event ? shownEventName(event.event) : 'delivery'} failed`, error));
  const complain = (thrown: unknown) => log.error('webhook onError threw', thrown);
  return (error, event) => {
    try {
      const returned: unknown = tell(error, event);
      if (isThenable(returned)) returned.then(undefined, complain);
    } catch (thrown) {
      complain(thrown);
    }
  };
}

function positiveInteger(
  name: string,
  value: number | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const chosen = value ?? fallback;
  if (!Number.isSafeInteger(chosen) || chosen < 1 || chosen > max) {
    throw new RangeError(`${name} must be a positive integer up to ${max}, got ${String(chosen)}`);
  }
  return chosen;
}

function resolveStore(dedupe: WebhookHandlerOptions['dedupe']): WebhookDedupeStore | undefined {
  if (dedupe === undefined || dedupe === false) return undefined;
  if (dedupe === true) return new MemoryDedupeStore();
  if (isDedupeStore(dedupe)) return dedupe;
  if (isSimpleDedupeStore(dedupe)) return claimsOverSimpleStore(dedupe);
  throw new TypeError(
    'dedupe must be true, false, a WebhookDedupeStore (claim, complete and release) or a ' +
      'SimpleDedupeStore (has and add)',
  );
}

/**
 * A handler or hook that is not a function would fail every delivery with a 500 that the sender
 * retries for ever (`verify: process.env.WEBHOOK_TOKEN` is an easy slip): refused at creation.
 */
function checkFunctions(options: WebhookHandlerOptions): void {
  const on: unknown = options.on;
  if (on !== undefined && (on === null || typeof on !== 'object' || Array.isArray(on))) {
    throw new TypeError('`on` must be an object of handlers by event name.');
  }
  // Only own properties are handlers (an event named `constructor` must not find one), so a class
  // instance's methods or a Map's entries would never run: every event answered 200, unhandled.
  // A plain object's prototype is its realm's Object.prototype (or none), whose own is none.
  const prototype = on === undefined ? null : Object.getPrototypeOf(on);
  if (prototype !== null && Object.getPrototypeOf(prototype) !== null) {
    throw new TypeError(
      '`on` must be a plain object of handlers by event name ({ subscription_ended: (event) => … }), not a class instance or a Map.',
    );
  }
  const hooks: [string, unknown][] = [
    ...Object.entries((on ?? {}) as Record<string, unknown>).map(
      ([name, handler]): [string, unknown] => [`on.${name}`, handler],
    ),
    ['onUnknown', options.onUnknown],
    ['verify', options.verify],
    ['dedupeKey', options.dedupeKey],
    ['onError', options.onError],
  ];
  for (const [name, hook] of hooks) {
    if (hook !== undefined && typeof hook !== 'function') {
      throw new TypeError(
        `\`${name}\` must be a function, got ${hook === null ? 'null' : typeof hook}` +
          (name === 'verify'
            ? ' (to check a shared secret, use secretVerifier({ secret, query }))'
            : ''),
      );
    }
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
