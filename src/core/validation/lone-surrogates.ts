/**
 * Lone surrogates in a body: half a UTF-16 pair has no UTF-8 form, so a body cannot carry it as
 * written. JSON escapes it (`"\ud800"`), which PHP's `json_decode` refuses, and a Laravel service
 * then reads the request as having no fields at all (a refund with its default reason); a form
 * turns it into U+FFFD. Either way the service would act on something else than what was given,
 * so a body holding one is the caller's bad input, named before anything is sent.
 */

import type { ValidationIssue } from '../errors';
import { LONE_SURROGATE } from '../transport/path';

/** What a lone surrogate is, said in an issue. */
const NAMED =
  'contains a lone UTF-16 surrogate (half of a pair), which has no UTF-8 form: the service would read something else';

/**
 * An issue for every string of `value` (plain objects and arrays walked, their field names
 * included) that holds a lone surrogate, at its path under `at`. Files, dates and streams are
 * not text and are left alone.
 *
 * @example
 * ```ts
 * loneSurrogateIssues({ reason: 'caf\uD800' }); // [{ path: ['reason'], … }]
 * ```
 */
export function loneSurrogateIssues(
  value: unknown,
  at: readonly PropertyKey[] = [],
): ValidationIssue[] {
  if (typeof value === 'string') {
    return LONE_SURROGATE.test(value) ? [{ path: at, message: NAMED, code: 'invalid_string' }] : [];
  }
  if (Array.isArray(value))
    return value.flatMap((item, index) => loneSurrogateIssues(item, [...at, index]));
  if (value === null || typeof value !== 'object') return [];
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    LONE_SURROGATE.test(key)
      ? [{ path: [...at, key], message: NAMED, code: 'invalid_key' }]
      : loneSurrogateIssues(item, [...at, key]),
  );
}
