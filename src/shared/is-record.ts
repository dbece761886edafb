/**
 * The one test for "an object of named fields" that every reader of plain JavaScript input uses:
 * options objects, request bodies, parameters checked against a schema.
 *
 * @module
 */

/**
 * Whether `value` is an object of fields: an object that is not an array (nor a function).
 *
 * @example
 * ```ts
 * isRecord({ timeout: 1 }); // true
 * isRecord([1]); // false
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
