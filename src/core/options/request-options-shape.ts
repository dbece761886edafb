/**
 * The shape of a call's `RequestOptions` as plain JavaScript may give them: an object of the known
 * options, a real `AbortSignal`, extra fields that go out as the text the caller meant. The values'
 * own rules (a time-out's range, a header's characters) are `callSettings`' and `checkHeaders`'.
 */

import { PartnerError } from '../errors';
import { isAbortSignal, isOptionsObject, optionError, shownValue, unknownOptions } from './given';
import type { RequestOptions } from './index';
import { callSettings, checkHeaders, DEFAULT_SETTINGS } from './resolve';

/** Every option of `RequestOptions`: the compiler keeps this list whole. */
const REQUEST_OPTIONS = Object.keys({
  signal: true,
  timeout: true,
  totalTimeout: true,
  maxRetries: true,
  headers: true,
  maxResponseBytes: true,
  maxUploadBytes: true,
  extraBody: true,
  extraQuery: true,
} satisfies Record<keyof RequestOptions, true>);

const invalid = (message: string) => optionError(message, 'request options');

/**
 * Throws a `PartnerError` naming the first request option of a shape no call can send, or a
 * header no request can carry (as `defaultHeaders` are checked at construction).
 */
export function checkRequestOptions(options: unknown): void {
  checkRequestOptionsShape(options);
  checkHeaders((options as RequestOptions | undefined)?.headers, 'headers');
}

/**
 * Why `options`, kept to be given to every call of a job (a bulk job's, a BullMQ processor's),
 * cannot be: the first problem as `checkRequestOptions` and a call's settings would name it, or
 * `undefined`. Checked once when the job is made, so a misspelt option is not one failure per item.
 */
export function requestOptionsIssue(options: unknown): string | undefined {
  try {
    checkRequestOptions(options);
    callSettings(DEFAULT_SETTINGS, options as RequestOptions | undefined);
    return undefined;
  } catch (error) {
    if (!(error instanceof PartnerError)) throw error;
    return error.message.replace(/^Invalid request options: /, '');
  }
}

/** Throws a `PartnerError` naming the first request option of a shape no call can send. */
function checkRequestOptionsShape(options: unknown): void {
  if (options === undefined) return;
  if (!isOptionsObject(options)) {
    throw invalid(`expected an object of options (got ${shownValue(options)}).`);
  }
  const unknown = unknownOptions(options, REQUEST_OPTIONS);
  if (unknown.length > 0) throw invalid(`${unknown.join('; ')}.`);
  const { signal, extraBody, extraQuery } = options as RequestOptions;
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw invalid(`\`signal\` must be an AbortSignal (got ${shownValue(signal)}).`);
  }
  const queryIssue = queryValuesIssue(extraQuery, 'extraQuery');
  if (queryIssue) throw invalid(queryIssue);
  if (extraBody !== undefined) {
    if (!isOptionsObject(extraBody)) {
      throw invalid(`\`extraBody\` must be an object of fields (got ${shownValue(extraBody)}).`);
    }
  }
}

/**
 * Why `query` (named `name` in the message) cannot be sent as a query string, or `undefined`: it
 * must be an object whose values are strings, numbers, booleans or `undefined` (left out).
 */
export function queryValuesIssue(query: unknown, name: string): string | undefined {
  if (query === undefined) return undefined;
  if (!isOptionsObject(query)) return `\`${name}\` must be an object of query parameters.`;
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value === undefined || ['string', 'number', 'boolean'].includes(typeof value)) continue;
    return `\`${name}.${key}\` must be a string, a number or a boolean (got ${shownValue(value)}).`;
  }
  return undefined;
}
