/**
 * The kind of a value as a message says it, never the value itself: a value out of place may be
 * personal data or a secret, and a message reaches logs.
 *
 * @module
 */

/**
 * `value`'s kind in words: `null`, `undefined`, `NaN`, `an infinite number`, `an integer`,
 * `a fraction`, `a boolean`, `a string`, `an array`, `an object`, `a function`, `a symbol` or
 * `a bigint`.
 *
 * @example
 * ```ts
 * kindOf('19.90'); // 'a string'
 * kindOf(1.5); // 'a fraction'
 * ```
 */
export function kindOf(value: unknown): string {
  if (value == null) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return 'an infinite number';
    return Number.isInteger(value) ? 'an integer' : 'a fraction';
  }
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
