/** Builds request paths from templates with every parameter checked and percent-encoded. */

import { kindOf } from '../../shared/kind-of';
import { RequestValidationError } from '../errors';
import { shownValue } from '../options/given';
import { withoutQuery } from './request';

const UNRESERVED = /^[A-Za-z0-9_~.-]+$/;

/** Checks and percent-encodes one path segment; an empty value, `.` or `..` is refused. */
export function encodePathParam(name: string, value: unknown): string {
  // The common case, an id of unreserved characters, needs no encoding.
  if (typeof value === 'string' && UNRESERVED.test(value) && value !== '.' && value !== '..') {
    return value;
  }
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw invalid(name, `expected a string, got ${kindOf(value)}`);
  }
  // `NaN` or `Infinity` would reach the service as that word, another resource's name.
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw invalid(name, `expected a string, got the number ${value}`);
  }
  const text = String(value);
  if (text.trim() === '') throw invalid(name, 'must not be empty');
  // `.` and `..` would be resolved away by URL parsing and silently change the endpoint.
  if (text === '.' || text === '..') throw invalid(name, `must not be "${text}"`);
  if (LONE_SURROGATE.test(text)) throw invalid(name, LONE_SURROGATE_NAMED);
  return encodeURIComponent(text);
}

/**
 * A path parameter as a message names it (`refund of transaction tx_1`): a string as it is,
 * anything else by its kind, so a message about a wrong one is always built.
 */
export function shownPathParam(value: unknown): string {
  return typeof value === 'string' ? value : shownValue(value);
}

/** Half of a UTF-16 surrogate pair without its other half: no URL can carry it (UTF-8 has no form for it). */
export const LONE_SURROGATE = /\p{Cs}/u;

/** What {@link LONE_SURROGATE} finds, said in an issue. */
export const LONE_SURROGATE_NAMED = 'contains a lone UTF-16 surrogate, which no URL can carry';

/** A `.` or `..` segment, plain or percent-encoded (`%2e`), which URL parsing resolves away. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=\/|$)/i;

/**
 * Whether `path` (a path under `baseUrl`, maybe with a query) holds a dot segment before its query:
 * sent, it would reach another endpoint than the one written, above `baseUrl` even.
 */
export function hasDotSegment(path: string): boolean {
  return DOT_SEGMENT.test(withoutQuery(path));
}

function invalid(name: string, message: string): RequestValidationError {
  return new RequestValidationError(`Invalid path parameter \`${name}\``, [
    { path: [name], message, code: 'invalid_path_param' },
  ]);
}

/**
 * Tagged template for endpoint paths: `path\`/products/${{ productHash }}\``. Each interpolation is
 * a one-key object naming the parameter, so errors name it too.
 */
export function path(strings: TemplateStringsArray, ...params: Record<string, unknown>[]): string {
  let result = strings[0] ?? '';
  for (let index = 0; index < params.length; index++) {
    const param = params[index]!;
    let name = 'parameter';
    for (const key in param) {
      name = key;
      break;
    }
    result += encodePathParam(name, param[name]) + (strings[index + 1] ?? '');
  }
  return result;
}

/**
 * A path template and its parameters, as `route` gives them: `{ path: '/products/{productHash}',
 * pathParams: { productHash } }`. The transport fills the template when the call runs (`fillPath`),
 * so that a bad parameter rejects the call's promise, nothing sent, like any other bad input.
 */
export interface Route {
  /** The template, each parameter named in braces (`/products/{productHash}`). */
  path: string;
  /** The value of each parameter of the template, as the caller gave it. */
  pathParams: Record<string, unknown>;
}

/**
 * Tagged template for an endpoint's path with its parameters left to the transport:
 * `route\`/products/${{ productHash }}\``. Each interpolation is a one-key object naming the
 * parameter; the template keeps the names (`/products/{productHash}`), which telemetry records
 * instead of the hashes.
 */
export function route(strings: TemplateStringsArray, ...params: Record<string, unknown>[]): Route {
  let path = strings[0] ?? '';
  const pathParams: Record<string, unknown> = {};
  for (let index = 0; index < params.length; index++) {
    const name = Object.keys(params[index]!)[0] ?? 'parameter';
    pathParams[name] = params[index]![name];
    path += `{${name}}${strings[index + 1] ?? ''}`;
  }
  return { path, pathParams };
}

/**
 * `template` with each `{name}` of `pathParams` replaced by its value, checked and percent-encoded
 * (`encodePathParam`), in the order `route` gave them (the template's), so the first bad one is
 * the one reported.
 */
export function fillPath(template: string, pathParams: Record<string, unknown>): string {
  let path = template;
  for (const name in pathParams)
    path = path.replace(`{${name}}`, encodePathParam(name, pathParams[name]));
  return path;
}
