/**
 * The zod checks of a call: its parameters before anything is sent (`checkParams`) and its
 * response body after (`validateResponse`, as `validateResponses` says), with zod's issues
 * reduced to what the SDK's errors keep (`toIssues`).
 */

import { safeParse, validate } from 'zod/mini';
import type { output } from 'zod/v4/core';
import { readStrings } from '../../assumption-readers';
import { DEFAULT_ASSUMPTIONS, type ResolvedAssumptions } from '../../assumptions';
import {
  type RequestIdentity,
  RequestValidationError,
  ResponseValidationError,
  type ValidationIssue,
} from '../errors';
import type { Logger } from '../logging/logger';
import type { ValidateResponses } from '../options';
import type { Schema } from '../transport/call-spec';
import { type DescribedIssue, describeIssue } from './issue-messages';
import { unknownKeyIssues } from './unknown-keys';
import { cycleOrDepthIssue, loneSurrogateIssues } from './wire-values';

/**
 * Checks `value` against `schema`, its strings read as the service reads them (`strings`, the
 * client's assumption; by default trimmed, a blank one missing) and returns it with its strings
 * so read; throws `RequestValidationError` naming `method` and every field that broke a rule, an
 * undocumented key first (with the documented name it most likely meant), then every string
 * holding a lone surrogate, which no request can carry as given.
 */
export function checkParams<S extends Schema>(
  schema: S,
  value: unknown,
  method: string,
  strings: ResolvedAssumptions['strings'] = DEFAULT_ASSUMPTIONS.strings,
): output<S> {
  // Judged as the service reads it, sent as read (a blank kept as `''`, which the service reads
  // as it would); params schemas only check, so the read value is what they would return.
  if (isBuiltIn(value)) {
    throw new RequestValidationError(`Invalid parameters for ${method}()`, [
      { path: [], message: 'expected an object of parameters', code: 'invalid_type' },
    ]);
  }
  // First, so that every walk below meets a value it can finish.
  const endless = cycleOrDepthIssue(value);
  if (endless) throw new RequestValidationError(`Invalid parameters for ${method}()`, [endless]);
  const judged = readStrings(value, strings);
  const result = safeParse(schema, judged);
  const unknownKeys = unknownKeyIssues(schema, value);
  const lone = loneSurrogateIssues(value);
  if (result.success && unknownKeys.length === 0 && lone.length === 0)
    return readStrings(value, strings, '') as output<S>;
  throw new RequestValidationError(`Invalid parameters for ${method}()`, [
    ...unknownKeys,
    ...lone,
    ...(result.success
      ? []
      : toIssues(result.error.issues, judged).map((issue) => requiredIfMissing(issue, judged))),
  ]);
}

/** A Date, a Map, a typed array, a boxed value: an object, but none a caller means as params. */
function isBuiltIn(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.prototype.toString.call(value) !== '[object Object]';
}

/**
 * A field left out (or blank, which the service reads as missing) is reported as required, not
 * as the wrong type its rule expected.
 */
function requiredIfMissing(issue: ValidationIssue, judged: unknown): ValidationIssue {
  const given = valueAt(judged, issue.path);
  return issue.code === 'invalid_type' && given === undefined
    ? { ...issue, message: 'Required' }
    : issue;
}

/** A response schema, or a function choosing it by status or by the body's shape. */
export type ResponseSchema =
  | Schema
  | ((status: number, body: unknown) => Schema | undefined)
  | undefined;

/**
 * The response `body` checked against the call's schema (`spec`): returned as parsed when it
 * matches; otherwise thrown as `ResponseValidationError` (`'strict'`), or logged and returned as it
 * came (`'warn'`), as the client's `validateResponses` says.
 */
export function validateResponse(
  spec: { schema?: ResponseSchema; callerSchema?: boolean | undefined },
  body: unknown,
  answer: { identity: RequestIdentity; status: number },
  options: { validateResponses: ValidateResponses; logger: Logger },
): unknown {
  const { schema: schemaOrChoice } = spec;
  const mode = options.validateResponses;
  if (!schemaOrChoice || mode === 'off') return body;
  const schema =
    typeof schemaOrChoice === 'function' ? schemaOrChoice(answer.status, body) : schemaOrChoice;
  if (!schema) return body;
  // The SDK's own response schemas only check (no transform, no default: a test walks every one),
  // so a body that passes is its own result: zod's compiled check says so without building a copy
  // of it. A partner's schema may transform, so its parsed output is the result.
  const checked = spec.callerSchema ? schema : compiled(schema);
  if (!spec.callerSchema && validate(checked, body)) return body;
  const result = safeParse(checked, body);
  if (result.success) return result.data;
  // Only for the SDK's own schemas, which return their input: a partner's may transform it.
  const issues = spec.callerSchema
    ? result.error.issues
    : beyondEmptyObjects(result.error.issues, body);
  if (issues.length === 0) return body;
  const { identity, status } = answer;
  // A success to anything but a read: the service acted on the call, which the error says.
  const acted = status >= 200 && status < 300 && !READS.has(identity.method.toUpperCase());
  const error = new ResponseValidationError(identity, status, body, toIssues(issues, body), acted);
  if (mode === 'strict') throw error;
  options.logger.warn(error.message, { issues: error.issues });
  return body;
}

/** Methods that only read: an answer to one says nothing of an effect. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * zod's `issues` less those of an empty `[]` where an object was expected, below the body's top:
 * PHP has one array type, so a Laravel service's `json_encode` writes an empty object (a created
 * fee tier's `old`, a product's `metadata`, a one-time offer's `subscription`) as `[]`. Such a
 * field is returned as it came and reads as `{}` would, with none of the object's fields. A body
 * that is `[]` itself is no resource, and any other array where an object belongs is a wrong type.
 */
function beyondEmptyObjects<I extends ZodIssueLike>(issues: ReadonlyArray<I>, body: unknown): I[] {
  return issues.filter(({ code, expected, path }) => {
    if (code !== 'invalid_type' || expected !== 'object' || path.length === 0) return true;
    const value = valueAt(body, path);
    return !(Array.isArray(value) && value.length === 0);
  });
}

/** What `value` holds at `path`, or `undefined` where the path leaves it. */
function valueAt(value: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  return path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown>)?.[key], value);
}

const compiledSchemas = new WeakMap<Schema, Schema>();

let compiler: typeof import('./compiler') | undefined;
let loadingCompiler: Promise<void> | undefined;

/**
 * Loads zod's compiler, once, as a chunk of its own (a client starts it when made, so its first
 * answer rarely finds it missing). Until it is in, and for good where it cannot load (a bundle
 * that dropped the chunk), responses are checked by zod's interpreted parser, which gives the same
 * results and issues.
 */
export function loadCompiler(): Promise<void> {
  loadingCompiler ??= import('./compiler').then(
    (loaded) => {
      compiler = loaded;
    },
    () => {},
  );
  return loadingCompiler;
}

/**
 * The SDK's own response `schema` as zod compiles it (`compile`: the same results and issues as
 * zod's interpreted parser, much faster on large pages), built on the schema's first use so that a
 * cold import pays nothing for the endpoints a partner never calls; the schema itself while the
 * compiler is still loading (`loadCompiler`). Where the runtime refuses code from strings (a
 * Content-Security-Policy, some edge runtimes), zod hands the schema back as it was and the
 * interpreted parser runs. A partner's own schema is never compiled: zod's compiled path may run
 * its refinements a second time on a refused value, which a partner would not expect.
 */
export function compiled(schema: Schema): Schema {
  let fast = compiledSchemas.get(schema);
  if (fast !== undefined) return fast;
  if (compiler === undefined) {
    void loadCompiler();
    return schema;
  }
  fast = compiler.compile(schema);
  compiledSchemas.set(schema, fast);
  return fast;
}

/**
 * zod issues reduced to what the SDK's errors keep, each said in words where zod/mini gave only
 * "Invalid input" (`describeIssue`, from the value checked, `checked`).
 */
export function toIssues(
  issues: ReadonlyArray<ZodIssueLike>,
  checked: unknown,
  prefix: ReadonlyArray<PropertyKey> = [],
): ValidationIssue[] {
  return issues.flatMap((issue) => {
    const { path, code, errors } = issue;
    // A union reports only "Invalid input" at its own path; the alternative that came closest
    // (fewest issues) says what is actually wrong, field by field.
    if (code === 'invalid_union' && errors && errors.length > 0) {
      const closest = errors.reduce((best, next) => (next.length < best.length ? next : best));
      if (closest.length > 0) return toIssues(closest, checked, [...prefix, ...path]);
    }
    const at = [...prefix, ...path];
    return [{ path: at, message: describeIssue(issue, valueAt(checked, at)), code }];
  });
}

/** The parts of a zod issue the SDK keeps (`errors`: one issue list per alternative of a union). */
interface ZodIssueLike extends DescribedIssue {
  path: PropertyKey[];
  errors?: ReadonlyArray<ReadonlyArray<ZodIssueLike>>;
}
