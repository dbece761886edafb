/**
 * Values a request cannot carry as given, found before anything is sent. Half a UTF-16 pair has no
 * UTF-8 form: JSON escapes it (`"\ud800"`), which PHP's `json_decode` refuses, and a Laravel
 * service then reads the request as having no fields at all (a refund with its default reason); a
 * form turns it into U+FFFD. The escape hatch (`extraBody`, `extraQuery`), which no schema checks,
 * can hold more: JSON writes `NaN`, `Infinity` and an invalid `Date` as `null` and cannot write a
 * bigint; a form or a query writes `NaN` as text. Each would have the service act on something
 * else than what was given, so each is the caller's bad input, named where it is.
 */

import type { ValidationIssue } from '../errors';
import { LONE_SURROGATE } from '../transport/path';

/** What a lone surrogate is, said in an issue. */
const LONE =
  'contains a lone UTF-16 surrogate (half of a pair), which has no UTF-8 form: the service would read something else';

/** What a leaf value is wrong with, in words, or `undefined` when it travels as given. */
type LeafCheck = (value: unknown) => string | undefined;

const loneSurrogate: LeafCheck = (value) =>
  typeof value === 'string' && LONE_SURROGATE.test(value) ? LONE : undefined;

/**
 * An issue for every leaf of `value` that `check` finds wrong, and every field name holding a
 * lone surrogate, at its path under `at`. Plain objects and arrays are walked; files, dates and
 * streams are leaves. Every call's parameters pass here: a path is built only for a container
 * walked into or an issue found, so a clean value costs its walk and nothing more.
 */
function walk(
  value: unknown,
  check: LeafCheck,
  at: readonly PropertyKey[],
  issues: ValidationIssue[] = [],
): ValidationIssue[] {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      visit(value[index], check, at, index, issues);
    }
  } else if (isWalked(value)) {
    for (const key of Object.keys(value)) {
      if (LONE_SURROGATE.test(key))
        issues.push({ path: [...at, key], message: LONE, code: 'invalid_key' });
      else visit((value as Record<string, unknown>)[key], check, at, key, issues);
    }
  } else {
    const message = check(value);
    if (message) issues.push({ path: at, message, code: 'invalid_value' });
  }
  return issues;
}

/** `item`, found at `key` under `at`, walked into or checked as a leaf. */
function visit(
  item: unknown,
  check: LeafCheck,
  at: readonly PropertyKey[],
  key: PropertyKey,
  issues: ValidationIssue[],
): void {
  if (Array.isArray(item) || isWalked(item)) {
    walk(item, check, [...at, key], issues);
    return;
  }
  const message = check(item);
  if (message) issues.push({ path: [...at, key], message, code: 'invalid_value' });
}

/** Whether `value` is a plain object (of fields walked), not a leaf such as a file or a date. */
function isWalked(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * How deep a request value may nest. No body of this API nests more than a few levels, and every
 * walk over a body (`JSON.stringify` included) recurses: a value nested some thousands deep
 * overflows the stack before any of them could name it, so it is refused here, far above any real
 * body and far below any stack.
 */
const DEEPEST = 1000;

/**
 * The first place in `value` that no walk can finish, as an issue at its path under `at`, or
 * `undefined` when there is none: a value that contains itself (where the cycle closes), or one
 * nested deeper than {@link DEEPEST} (at the start of its path). Checked first wherever a body is
 * walked (a call's parameters, and whatever `unsendableIssues` is given), so that every walk after
 * it may recurse safely. An object given twice side by side is no cycle: only the objects above a
 * value are held.
 *
 * @example
 * ```ts
 * const inner: Record<string, unknown> = {};
 * inner.self = inner;
 * cycleOrDepthIssue({ a: inner }); // { path: ['a', 'self'], message: 'is a cycle: it contains itself', … }
 * ```
 */
export function cycleOrDepthIssue(
  value: unknown,
  at: PropertyKey[] = [],
  above: object[] = [],
): ValidationIssue | undefined {
  let message: string | undefined;
  if (!Array.isArray(value) && !isWalked(value)) return undefined;
  if (above.includes(value)) message = 'is a cycle: it contains itself';
  else if (above.length === DEEPEST) {
    message = `nests deeper than ${DEEPEST} levels`;
    at = at.slice(0, 2);
  } else {
    for (const [key, item] of Object.entries(value)) {
      const issue = cycleOrDepthIssue(item, [...at, key], [...above, value]);
      if (issue) return issue;
    }
    return undefined;
  }
  return { path: at, message, code: 'invalid_value' };
}

/**
 * An issue for every string of `value` (plain objects and arrays walked, their field names
 * included) that holds a lone surrogate, at its path under `at`.
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
  return walk(value, loneSurrogate, at);
}

/** The check of a leaf of an escape-hatch value sent as `body`. */
function unsendable(body: 'json' | 'form' | 'query'): LeafCheck {
  return (value) => {
    if (typeof value === 'symbol' || typeof value === 'function') {
      return `is a ${typeof value}, which no request can carry`;
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      return `is ${value}, which ${body === 'json' ? 'JSON sends as null' : `a ${body} sends as text`}: not a number the service can read`;
    }
    if (value instanceof Date && Number.isNaN(value.getTime())) {
      return 'is an invalid Date, which names no instant';
    }
    if (typeof value === 'bigint' && body === 'json') {
      return 'is a bigint, which JSON.stringify cannot write: give it as a string, or as a number up to 2^53 - 1';
    }
    return loneSurrogate(value);
  };
}

/**
 * The issues of an escape-hatch value (`extraBody` sent as JSON or a form, `extraQuery`, the body
 * of `client.request()`) that no schema checked: first what {@link cycleOrDepthIssue} finds, which no
 * walk could finish; else a symbol or a function (which `JSON.stringify` drops silently), a lone
 * surrogate, a number that is not finite, an invalid `Date`, and in JSON a bigint.
 *
 * @example
 * ```ts
 * unsendableIssues({ fee: Number.NaN }, 'json'); // [{ path: ['fee'], … }]
 * ```
 */
export function unsendableIssues(
  value: unknown,
  body: 'json' | 'form' | 'query',
): ValidationIssue[] {
  const endless = cycleOrDepthIssue(value);
  return endless ? [endless] : walk(value, unsendable(body), []);
}
