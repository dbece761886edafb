/**
 * What every client a command makes shares, the login's check included: the SDK's log on stderr
 * and the time limit of a call.
 *
 * @module
 */

import type { ClientOptions } from 'partner-sdk';
import type { GlobalOptions, Io } from './context';
import { UsageError } from './errors';
import { visible } from './format';

/** The client options a run sets. */
export type RunClientOptions = Pick<
  ClientOptions,
  'logLevel' | 'logger' | 'timeout' | 'totalTimeout'
>;

/** The levels `PARTNER_API_LOG` may name, as the client takes them. */
const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug'];

/**
 * The SDK's log: each request and answer with `--verbose` (headers and bodies as the SDK redacts
 * them), else the level `PARTNER_API_LOG` names, else errors only. Always on stderr, so that
 * stdout stays the command's output.
 */
function logging(io: Io, options: GlobalOptions): Pick<ClientOptions, 'logLevel' | 'logger'> {
  const fromEnv = io.env.PARTNER_API_LOG || undefined;
  if (!options.verbose && fromEnv !== undefined && !LOG_LEVELS.includes(fromEnv)) {
    // The client would name its `logLevel` option, which an operator never wrote.
    throw new UsageError(
      `PARTNER_API_LOG must be ${LOG_LEVELS.slice(0, -1).join(', ')} or debug, got "${fromEnv}"`,
    );
  }
  const level = options.verbose ? 'debug' : (fromEnv ?? 'error');
  const write = (message: string, ...details: unknown[]) => {
    const shown = details.map((d) => (typeof d === 'string' ? d : JSON.stringify(d)));
    io.stderr.write(`${visible([message, ...shown].join(' '))}\n`);
  };
  return {
    logLevel: level as ClientOptions['logLevel'],
    logger: { error: write, warn: write, info: write, debug: write },
  };
}

/** `--request-timeout` in milliseconds, undefined when not given; a usage error when not a time. */
export function requestTimeoutOf(options: GlobalOptions): number | undefined {
  const value = options.requestTimeout;
  if (value === undefined) return undefined;
  const ms = Number(value) * 1000;
  if (!(ms >= 1 && ms <= 2_147_483_647)) {
    throw new UsageError(
      `--request-timeout must be a number of seconds from 0.001 to 2147483, got "${value}"`,
    );
  }
  return ms;
}

/** The log, and with `--request-timeout` one bound for each call, its retries included. */
export function clientOptionsOf(io: Io, options: GlobalOptions): RunClientOptions {
  const ms = requestTimeoutOf(options);
  // As curl's --max-time: each attempt, and the retries with it.
  return ms === undefined
    ? logging(io, options)
    : { ...logging(io, options), timeout: ms, totalTimeout: ms };
}
