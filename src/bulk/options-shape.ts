/**
 * The options of a bulk job as plain JavaScript may give them: an object of the options the job
 * knows, each unknown one (a misspelt `concurency`) named with the one it likely meant, as the
 * client's own options are. Their values' rules are `runBulk`'s.
 *
 * @module
 */

import { RequestValidationError } from '../core/errors';
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

/**
 * Throws a `RequestValidationError` for options that are no object, or that hold a key outside
 * `known` (each such key an issue of its own, at its path).
 */
export function checkBulkOptionsShape(
  options: unknown,
  known: readonly string[] = BULK_OPTIONS,
): asserts options is BulkOptions {
  if (!isOptionsObject(options)) {
    throw new RequestValidationError('Invalid bulk options', [
      {
        path: [],
        message: `expected an object of options (got ${shownValue(options)})`,
        code: 'invalid_type',
      },
    ]);
  }
  const keys = Object.keys(options).filter((key) => !known.includes(key));
  if (keys.length === 0) return;
  const sentences = unknownOptions(options, known);
  throw new RequestValidationError(
    'Invalid bulk options',
    keys.map((key, i) => ({ path: [key], message: sentences[i]!, code: 'unrecognized_keys' })),
  );
}
