/**
 * A levelled logger over any console-compatible object. Every argument is redacted before it
 * reaches the sink: secrets always, personal data (tax ids, bank numbers, pix keys) as well.
 */

import { hasMethod } from '../../shared/has-method';
import { redactForLog, redactText } from './redact';

/**
 * Anything with console's four methods, called as console is: a message, then details (headers,
 * bodies, an error) as further arguments. `console` and winston take that as it is. pino (and
 * bunyan) take their fields before the message and drop any later argument, the headers and bodies
 * of `debug` and the error of a failed webhook included: hand them an adapter, as below. Every
 * message and detail is redacted before it reaches the logger.
 *
 * @example
 * ```ts
 * import pino from 'pino';
 *
 * const log = pino();
 * // The details under `details`; an error under `err`, which pino writes with its stack.
 * const at =
 *   (level: 'error' | 'warn' | 'info' | 'debug') =>
 *   (message: string, ...details: unknown[]) =>
 *     details[0] instanceof Error
 *       ? log[level]({ err: details[0], details: details.slice(1) }, message)
 *       : log[level]({ details }, message);
 * const client = new PartnerClient({
 *   logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') },
 *   logLevel: 'info',
 * });
 * ```
 */
export interface Logger {
  /**
   * Failures no caller sees thrown: a webhook delivery answered 500, an `onError` that threw. A
   * client's failures are thrown to its caller, not logged at this level.
   */
  error(message: string, ...details: unknown[]): void;
  /**
   * Retries, response-shape warnings, a refund whose answer was lost found made (so not requested
   * again): things that worked around a problem.
   */
  warn(message: string, ...details: unknown[]): void;
  /**
   * One line per call: method, path, the status (or the error's class when no answer came, or
   * `answer lost, result found`), duration; a client token renewed and its call replayed.
   */
  info(message: string, ...details: unknown[]): void;
  /** Request and response headers and bodies, redacted. */
  debug(message: string, ...details: unknown[]): void;
}

/** How much the SDK logs: nothing (`'off'`) up to every request and response (`'debug'`); the default is `'warn'`. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** The logger the transport calls: filtered by level, redacting, never throwing. */
export interface SdkLogger extends Logger {
  /** Whether `level` would be written; lets callers skip building expensive details. */
  enabled(level: Exclude<LogLevel, 'off'>): boolean;
}

const LOGGER_METHODS = ['error', 'warn', 'info', 'debug'] as const;

/**
 * Which of console's four methods `value` lacks, in console's order: all four for a value that is
 * no object. A logger short of one would swallow that level's lines without a word.
 */
export function missingLoggerMethods(value: unknown): string[] {
  return LOGGER_METHODS.filter((name) => !hasMethod(value, name));
}

/** Wraps `sink` so that only messages at or above `level` pass, each redacted. */
export function createLogger(sink: Logger, level: LogLevel): SdkLogger {
  const rank = RANK[level];
  const emit =
    (method: keyof Logger) =>
    (message: string, ...details: unknown[]) => {
      if (RANK[method] > rank) return;
      try {
        sink[method](`[partner-sdk] ${redactText(message)}`, ...details.map(redactForLog));
      } catch {
        // A broken logger must never break a call.
      }
    };
  return {
    error: emit('error'),
    warn: emit('warn'),
    info: emit('info'),
    debug: emit('debug'),
    enabled: (wanted) => RANK[wanted] <= rank,
  };
}

/** Reads a level name such as the value of `PARTNER_API_LOG`; `undefined` for an unknown or empty one. */
export function parseLogLevel(value: unknown): LogLevel | undefined {
  // A level given from plain JavaScript may be anything: only a name can be one.
  if (typeof value !== 'string' || value === '') return undefined;
  const lower = value.toLowerCase();
  // Own keys only: `constructor` is no level.
  return Object.hasOwn(RANK, lower) ? (lower as LogLevel) : undefined;
}

/** The unknown `PARTNER_API_LOG` values already said in this process. */
const unknownLevelsSaid = new Set<string>();

/**
 * Says once per process that `PARTNER_API_LOG` names no level: the client then logs at `'warn'`,
 * and an operator who asked for `verbose` or `trace` would otherwise wonder where the lines went.
 */
export function warnOfUnknownLevel(logger: SdkLogger, value: string | undefined): void {
  if (value === undefined || value === '' || parseLogLevel(value) !== undefined) return;
  if (unknownLevelsSaid.has(value)) return;
  unknownLevelsSaid.add(value);
  logger.warn(
    `PARTNER_API_LOG must be off, error, warn, info or debug (got ${JSON.stringify(value)}): logging at warn`,
  );
}
