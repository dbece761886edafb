/** The check every method runs on its parameters before anything is sent. */

import { safeParse } from 'zod/mini';
import type { output } from 'zod/v4/core';
import { RequestValidationError } from './errors';
import type { Schema } from './transport';
import { toIssues } from './transport';

/**
 * Checks `value` against `schema` and returns the parsed value; throws `RequestValidationError`
 * naming `method` and every field that broke a rule.
 */
export function checkParams<S extends Schema>(
  schema: S,
  value: unknown,
  method: string,
): output<S> {
  const result = safeParse(schema, value);
  if (result.success) return result.data;
  throw new RequestValidationError(
    `Invalid parameters for ${method}()`,
    toIssues(result.error.issues),
  );
}
