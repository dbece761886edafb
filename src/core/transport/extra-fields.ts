/**
 * The escape hatch for fields the spec does not document: `extraBody` and `extraQuery` of
 * `RequestOptions`, merged into a call after its params were checked, so they go out as given.
 */

import { isRecord } from '../../shared/is-record';
import { RequestValidationError, type ValidationIssue } from '../errors';
import type { RequestOptions } from '../options';
import { unsendableIssues } from '../validation/wire-values';
import type { CallSpec } from './call-spec';
import { appendFields } from './multipart';

/**
 * `spec` with the call's extra body and query fields merged in; `spec` itself when there are none.
 * A file in `extraBody` is held to `maxUploadBytes` as the documented ones are; a value a form
 * cannot carry as given (a lone surrogate, a number that is not finite, an invalid `Date`) is
 * refused, where a schema would have refused it in a documented field.
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
    if (spec.form !== undefined) {
      // Checked here, before it joins the form: a JSON body and a query are checked whole, later.
      const issues = unsendableIssues(extraBody, 'form');
      if (issues.length > 0) throw refusal(spec, issues);
      merged.form = Promise.resolve(spec.form).then((form) =>
        appendFields(form, extraBody, maxUploadBytes),
      );
    } else if (isRecord(spec.json)) {
      merged.json = mergeDeep(spec.json, extraBody);
    } else {
      const message = 'this call sends no body: use extraQuery';
      throw refusal(spec, [{ path: ['extraBody'], code: 'invalid_type', message }]);
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
    const value = isRecord(inBase) && isRecord(inExtra) ? mergeDeep(inBase, inExtra) : inExtra;
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

/** The refusal of a call whose extra fields it cannot send: nothing is sent. */
function refusal(spec: CallSpec, issues: ValidationIssue[]): RequestValidationError {
  return new RequestValidationError(
    `Invalid request options for ${spec.method} ${spec.path}`,
    issues,
  );
}
