/**
 * The escape hatch for fields the spec does not document: `extraBody` and `extraQuery` of
 * `RequestOptions`, merged into a call after its params were checked, so they go out as given.
 */

import { RequestValidationError } from '../errors';
import type { RequestOptions } from '../options';
import { loneSurrogateIssues } from '../validation/lone-surrogates';
import type { CallSpec } from './call-spec';
import { appendFields } from './multipart';

/**
 * `spec` with the call's extra body and query fields merged in; `spec` itself when there are none.
 * A file in `extraBody` is held to `maxUploadBytes` as the documented ones are, and its text to
 * what a body can carry (no lone surrogate), as theirs is.
 */
export function withExtraFields<S extends CallSpec>(
  spec: S,
  options: RequestOptions | undefined,
  maxUploadBytes: number,
): S {
  const extraBody = options?.extraBody;
  const extraQuery = options?.extraQuery;
  if (extraBody === undefined && extraQuery === undefined) return spec;
  const merged: S = { ...spec };
  if (extraQuery !== undefined) merged.query = { ...spec.query, ...extraQuery };
  if (extraBody !== undefined) {
    const lone = loneSurrogateIssues(extraBody);
    if (lone.length > 0) {
      throw new RequestValidationError(
        `Invalid request options for ${spec.method} ${spec.path}`,
        lone,
      );
    }
    if (spec.form !== undefined) {
      merged.form = Promise.resolve(spec.form).then((form) =>
        appendFields(form, extraBody, maxUploadBytes),
      );
    } else if (isPlainObject(spec.json)) {
      merged.json = mergeDeep(spec.json, extraBody);
    } else {
      throw new RequestValidationError(`Invalid request options for ${spec.method} ${spec.path}`, [
        {
          path: ['extraBody'],
          code: 'invalid_type',
          message: 'this call sends no body: use extraQuery',
        },
      ]);
    }
  }
  return merged;
}

/**
 * `extra` laid over `base`: nested objects merge (`{ filter: { type } }` keeps `filter.betweenDates`),
 * anything else in `extra` replaces what `base` has.
 */
function mergeDeep(
  base: Record<string, unknown>,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  const merged = { ...base };
  for (const key of Object.keys(extra)) {
    const [inBase, inExtra] = [Object.hasOwn(base, key) ? base[key] : undefined, extra[key]];
    const value =
      isPlainObject(inBase) && isPlainObject(inExtra) ? mergeDeep(inBase, inExtra) : inExtra;
    // Defined, not assigned: a field named `__proto__` stays a field instead of becoming the body's prototype.
    Object.defineProperty(merged, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
