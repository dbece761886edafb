/**
 * The options of a bulk job as plain JavaScript may give them: an object of the options the job
 * knows, each unknown one (a misspelt `concurency`) named with the one it likely meant, as the
 * client's own options are. Their values' rules are `runBulk`'s.
 *
 * @module
 */

import { RequestValidationError, type ValidationIssue } from '../core/errors';
import { isOptionsObject, shownValue, unknownOptions } from '../core/options/given';
import type { BulkOptions } from './types';

/** Every option of `BulkOptions`: the compiler keeps this list whole. */
export const BULK_OPTIONS = Object.keys({
  concurrency: true,
  minConcurrency: true,
  maxConcurrency: true,
  maxAttempts: true,
  signal: true,
  journal: true,
  retryFailed: true,
  dryRun: true,
  dedupeWindow: true,
  total: true,
  onProgress: true,
  requestOptions: true,
  telemetry: true,
} satisfies Record<keyof BulkOptions, true>);

/** The request options a job passes on to its calls; `signal` and `maxRetries` are the job's own. */
const REQUEST_OPTIONS = Object.keys({
  timeout: true,
  totalTimeout: true,
  headers: true,
} satisfies Record<keyof NonNullable<BulkOptions['requestOptions']>, true>);

/** The problems of `value` as an options object of `known` keys, at `path`: none when it is one. */
function shapeIssues(value: unknown, known: readonly string[], path: string[]): ValidationIssue[] {
  if (!isOptionsObject(value)) {
    const message = `expected an object of options (got ${shownValue(value)})`;
    return [{ path, message, code: 'invalid_type' }];
  }
  const keys = Object.keys(value).filter((key) => !known.includes(key));
  const sentences = unknownOptions(value, known);
  return keys.map((key, i) => ({
    path: [...path, key],
    message: sentences[i]!,
    code: 'unrecognized_keys',
  }));
}

/**
 * Throws a `RequestValidationError` for options that are no object, or that hold a key outside
 * `known` (each such key an issue of its own, at its path), its `requestOptions` included: a
 * call would refuse such a key once per item.
 */
export function checkBulkOptionsShape(
  options: unknown,
  known: readonly string[] = BULK_OPTIONS,
): asserts options is BulkOptions {
  const issues = shapeIssues(options, known, []);
  const nested = isOptionsObject(options) ? options.requestOptions : undefined;
  if (nested !== undefined)
    issues.push(...shapeIssues(nested, REQUEST_OPTIONS, ['requestOptions']));
  if (issues.length > 0) throw new RequestValidationError('Invalid bulk options', issues);
}
