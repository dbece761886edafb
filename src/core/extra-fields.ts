/**
 * The escape hatch for fields the spec does not document: `extraBody` and `extraQuery` of
 * `RequestOptions`, merged into a call after its params were checked, so they go out as given.
 */

import { RequestValidationError } from './errors';
import { appendFields } from './multipart';
import type { RequestOptions } from './options';
import type { CallSpec } from './transport';

/** `spec` with the call's extra body and query fields merged in; `spec` itself when there are none. */
export function withExtraFields<S extends CallSpec>(
  spec: S,
  options: RequestOptions | undefined,
): S {
  const extraBody = options?.extraBody;
  const extraQuery = options?.extraQuery;
  if (extraBody === undefined && extraQuery === undefined) return spec;
  const merged: S = { ...spec };
  if (extraQuery !== undefined) merged.query = { ...spec.query, ...extraQuery };
  if (extraBody !== undefined) {
    if (spec.form !== undefined) {
      merged.form = Promise.resolve(spec.form).then((form) => appendFields(form, extraBody));
    } else if (isPlainObject(spec.json)) {
      merged.json = { ...spec.json, ...extraBody };
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
