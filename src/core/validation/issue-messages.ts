/**
 * What a zod issue says where zod/mini, which ships without message locales, says only "Invalid
 * input": what the field expected and what kind of value came instead. The kind, never the value:
 * a message reaches logs, and a misplaced value may be personal data or a secret (the body kept on
 * the error is redacted; the message holds no value at all).
 */

import { kindOf } from '../../shared/kind-of';

/** The parts of a zod issue a message is made from. */
export interface DescribedIssue {
  code: string;
  message: string;
  expected?: unknown;
  origin?: unknown;
}

/** zod/mini's message for every issue whose schema gives none. */
const NO_LOCALE = 'Invalid input';

/** What zod's `expected` names, as a message says it. */
const EXPECTED: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/**
 * `issue`'s message, said in words where zod gave none: `received` is the value found at the
 * issue's path (`undefined` where the field is missing).
 *
 * @example
 * ```ts
 * describeIssue({ code: 'invalid_type', expected: 'number', message: 'Invalid input' }, '19.90');
 * // 'expected a number, received a string'
 * ```
 */
export function describeIssue(issue: DescribedIssue, received: unknown): string {
  if (issue.message !== NO_LOCALE) return issue.message;
  const expected =
    typeof issue.expected === 'string' ? (EXPECTED[issue.expected] ?? issue.expected) : undefined;
  if (issue.code === 'invalid_type' && expected !== undefined) {
    return received === undefined
      ? `required (expected ${expected})`
      : `expected ${expected}, received ${kindOf(received)}`;
  }
  if ((issue.code === 'too_big' || issue.code === 'too_small') && issue.origin === 'int') {
    // zod's integers stop at 2^53 - 1: past it `JSON.parse` has already rounded the number.
    return `expected an integer JavaScript holds exactly (at most ${Number.MAX_SAFE_INTEGER} either side of 0), received one past it, which reads as another number`;
  }
  return issue.message;
}
