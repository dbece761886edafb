/**
 * The escape hatch's request (`client.request`) as plain JavaScript may give it, checked before
 * anything is sent: each part of a shape the transport can send, the path under `baseUrl`.
 */

import { RequestValidationError, type ValidationIssue } from '../errors';
import { isOptionsObject, shownValue } from '../options/given';
import { queryValuesIssue } from '../options/request-options-shape';
import type { ReplayPolicy } from '../retry/policy';
import type { HttpMethod, Schema } from './call-spec';
import { hasDotSegment } from './path';

const METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] satisfies HttpMethod[];
const REPLAYS: readonly string[] = ['always', 'unsent', 'never'] satisfies ReplayPolicy[];

/** The parts of a raw request the transport reads. */
export interface RawRequestParts {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  form?: FormData | undefined;
  schema?: Schema | undefined;
  replay?: ReplayPolicy | undefined;
}

/** `request` once every part can be sent; else a `RequestValidationError` naming each that cannot. */
export function checkRawRequest(request: unknown): RawRequestParts {
  if (!isOptionsObject(request)) {
    throw refused([
      {
        path: [],
        message: `expected an object (got ${shownValue(request)})`,
        code: 'invalid_type',
      },
    ]);
  }
  const { method, path, query, form, schema, replay } = request as Partial<RawRequestParts>;
  const issues: ValidationIssue[] = [];
  const add = (name: string, message: string, code = 'invalid_type') =>
    issues.push({ path: [name], message, code });
  if (typeof method !== 'string' || !METHODS.includes(method)) {
    add('method', `must be one of ${METHODS.join(', ')}`);
  }
  if (typeof path !== 'string' || !path.startsWith('/') || hasDotSegment(path)) {
    const rule = 'must be a path under baseUrl starting with "/", without "." or ".." segments';
    add('path', rule, 'invalid_path');
  }
  const queryIssue = queryValuesIssue(query, 'query');
  if (queryIssue) add('query', queryIssue);
  if (form !== undefined && !(form instanceof FormData)) add('form', 'must be a FormData');
  if (schema !== undefined && !isSchema(schema)) add('schema', 'must be a zod schema');
  if (replay !== undefined && !REPLAYS.includes(replay))
    add('replay', `must be one of ${REPLAYS.join(', ')}`);
  if (issues.length > 0) throw refused(issues);
  return request as unknown as RawRequestParts;
}

function isSchema(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { _zod?: unknown })._zod === 'object'
  );
}

function refused(issues: ValidationIssue[]): RequestValidationError {
  return new RequestValidationError('Invalid request', issues);
}
