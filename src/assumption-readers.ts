/**
 * Values read the way the assumptions say the service shapes them (`assumptions.ts` holds the
 * assumptions themselves): a path with its hash in it, the token of a login answer, a request's
 * strings as the service reads them.
 */

import { DEFAULT_ASSUMPTIONS, type ResolvedAssumptions } from './assumptions';
import { trimAsLaravel } from './shared/laravel-trim';

/** The path of `template` with its `{hash}` replaced by an already-encoded value. */
export function hashPathOf(template: string, encodedHash: string): string {
  return template.replace('{hash}', encodedHash);
}

/**
 * The client token of a login answer, read at `tokenField` (a dot path), else under the envelope's
 * `data`; `undefined` when neither holds a non-empty string. Any body reads safely.
 */
export function readLoginToken(body: unknown, tokenField: string): string | undefined {
  const keys = tokenField.split('.');
  // Each step reads only an object's own field, so a body of any type reads safely.
  const at = (path: string[]) =>
    path.reduce<unknown>(
      (value, key) =>
        value !== null && typeof value === 'object' && Object.hasOwn(value, key)
          ? (value as Record<string, unknown>)[key]
          : undefined,
      body,
    );
  const token = at(keys) ?? at(['data', ...keys]);
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/**
 * A request's strings as the service reads them (`strings`): trimmed when `trim` (as Laravel
 * trims, zero-width spaces and marks included: `shared/laravel-trim.ts`), and with
 * `blankAs: 'missing'` an empty one read as absent (`blank` left out) or kept as `''` to send
 * (`blank` `''`, so the service reads its `null` as before). Only plain objects and arrays are
 * walked: files, dates and streams pass as they are.
 */
export function readStrings(
  value: unknown,
  strings: ResolvedAssumptions['strings'] = DEFAULT_ASSUMPTIONS.strings,
  blank?: '',
): unknown {
  if (typeof value === 'string') {
    const read = strings.trim ? trimAsLaravel(value) : value;
    return read === '' && strings.blankAs === 'missing' ? blank : read;
  }
  if (Array.isArray(value)) return value.map((item) => readStrings(item, strings, blank));
  if (value?.constructor !== Object) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, readStrings(v, strings, blank)]),
  );
}
