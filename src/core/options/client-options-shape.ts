/**
 * The shape of `new PartnerClient(options)` as plain JavaScript may give it: an object of the known
 * options only, credentials of the types a login and a header can carry, a logger with console's
 * four methods. Checked before any value is remembered as a secret or read further.
 */

import { hasMethod } from '../../shared/has-method';
import { missingLoggerMethods } from '../logging/logger';
import { isOptionsObject, optionError, shownValue, unknownOptions } from './given';
import type { ClientOptions } from './index';

/** Every option of `ClientOptions`: the compiler keeps this list whole. */
const CLIENT_OPTIONS = Object.keys({
  baseUrl: true,
  clientId: true,
  clientSecret: true,
  clientToken: true,
  timeout: true,
  totalTimeout: true,
  maxRetries: true,
  maxResponseBytes: true,
  maxUploadBytes: true,
  fetch: true,
  logger: true,
  logLevel: true,
  validateResponses: true,
  defaultHeaders: true,
  tokenStore: true,
  assumptions: true,
  telemetry: true,
  pace: true,
} satisfies Record<keyof ClientOptions, true>);

/**
 * Throws a `PartnerError` naming the first option of a shape no client can use. The values' own
 * rules (a time-out's range, a URL's scheme) are `resolveOptions`'.
 */
export function checkClientOptionsShape(options: unknown): asserts options is ClientOptions {
  if (!isOptionsObject(options)) {
    throw optionError(`expected an object of options (got ${shownValue(options)}).`);
  }
  const unknown = unknownOptions(options, CLIENT_OPTIONS);
  if (unknown.length > 0) throw optionError(`${unknown.join('; ')}.`);
  const { baseUrl, clientToken, logLevel, logger } = options;
  if (baseUrl !== undefined && typeof baseUrl !== 'string' && !(baseUrl instanceof URL)) {
    throw optionError(`\`baseUrl\` must be a URL string (got ${shownValue(baseUrl)}).`);
  }
  for (const name of ['clientId', 'clientSecret'] as const) {
    const value = options[name];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      // The value is never shown: it may be the secret itself.
      throw optionError(`\`${name}\` must be a non-empty string.`);
    }
  }
  if (
    clientToken !== undefined &&
    (typeof clientToken !== 'string' || clientToken === '') &&
    typeof clientToken !== 'function'
  ) {
    throw optionError('`clientToken` must be a non-empty string, or a function returning one.');
  }
  if (logLevel !== undefined && typeof logLevel !== 'string') {
    throw optionError(
      `\`logLevel\` must be 'off', 'error', 'warn', 'info' or 'debug' (got ${shownValue(logLevel)}).`,
    );
  }
  const telemetry = telemetryIssue(options.telemetry);
  if (telemetry) throw optionError(telemetry);
  const missing = logger === undefined ? [] : missingLoggerMethods(logger);
  if (missing.length > 0) {
    throw optionError(
      `\`logger\` must have console's methods error, warn, info and debug (${missing.join(', ')} missing).`,
    );
  }
}

/**
 * Why `telemetry` is no telemetry option, or `undefined`: anything but `false` turns recording on,
 * so `'off'` or `null` would have recorded, and a provider without its method failed at the call.
 */
function telemetryIssue(telemetry: unknown): string | undefined {
  if (telemetry === undefined || telemetry === false) return undefined;
  if (!isOptionsObject(telemetry)) {
    return `\`telemetry\` must be false or { tracerProvider, meterProvider, recordIds } (got ${shownValue(telemetry)}).`;
  }
  const { tracerProvider, meterProvider, recordIds } = telemetry;
  if (tracerProvider !== undefined && !hasMethod(tracerProvider, 'getTracer')) {
    return "`telemetry`'s tracerProvider must be a TracerProvider (with getTracer).";
  }
  if (meterProvider !== undefined && !hasMethod(meterProvider, 'getMeter')) {
    return "`telemetry`'s meterProvider must be a MeterProvider (with getMeter).";
  }
  if (recordIds !== undefined && typeof recordIds !== 'boolean') {
    return `\`telemetry\`'s recordIds must be a boolean (got ${shownValue(recordIds)}).`;
  }
  return undefined;
}
