/**
 * The one test for "something the SDK will call a method of" that every check of a partner's
 * object uses: a logger, a tracer or meter provider, a token store, a pace.
 *
 * @module
 */

/**
 * Whether `value` (an object, or a function with properties) has a method `name`.
 *
 * @example
 * ```ts
 * hasMethod(console, 'warn'); // true
 * hasMethod({ warn: 'loud' }, 'warn'); // false
 * ```
 */
export function hasMethod(value: unknown, name: string): boolean {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as Record<string, unknown>)[name] === 'function'
  );
}
