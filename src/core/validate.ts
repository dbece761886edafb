/** The check every method runs on its parameters before anything is sent. */

import { safeParse } from 'zod/mini';
import type { output } from 'zod/v4/core';
import { RequestValidationError } from './errors';
import type { Schema } from './transport';
import { toIssues } from './transport';
import { unknownKeyIssues } from './unknown-keys';

/**
 * Checks `value` against `schema` and returns the parsed value; throws `RequestValidationError`
 * naming `method` and every field that broke a rule, an undocumented key first (with the
 * documented name it most likely meant).
 */
export function checkParams<S extends Schema>(
  schema: S,
  value: unknown,
  method: string,
): output<S> {
  const result = safeParse(schema, value);
  const unknownKeys = unknownKeyIssues(schema, value);
  if (result.success && unknownKeys.length === 0) return result.data;
  throw new RequestValidationError(`Invalid parameters for ${method}()`, [
    ...unknownKeys,
    ...(result.success ? [] : toIssues(result.error.issues)),
  ]);
}
