/** Builds request paths from templates with every parameter checked and percent-encoded. */

import { RequestValidationError } from '../errors';

const UNRESERVED = /^[A-Za-z0-9_~.-]+$/;

/** Checks and percent-encodes one path segment; an empty value, `.` or `..` is refused. */
export function encodePathParam(name: string, value: unknown): string {
  // The common case, an id of unreserved characters, needs no encoding.
  if (typeof value === 'string' && UNRESERVED.test(value) && value !== '.' && value !== '..') {
    return value;
  }
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw invalid(name, `expected a string, got ${value === null ? 'null' : typeof value}`);
  }
  const text = String(value);
  if (text.trim() === '') throw invalid(name, 'must not be empty');
  // `.` and `..` would be resolved away by URL parsing and silently change the endpoint.
  if (text === '.' || text === '..') throw invalid(name, `must not be "${text}"`);
  return encodeURIComponent(text);
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
 * Like {@link path}, also giving the path's template with each parameter named
 * (`/products/{productHash}`), which telemetry records instead of the hashes:
 * `...route\`/products/${{ productHash }}\``.
 */
export function route(
  strings: TemplateStringsArray,
  ...params: Record<string, unknown>[]
): { path: string; template: string } {
  let template = strings[0] ?? '';
  for (let index = 0; index < params.length; index++) {
    template += `{${Object.keys(params[index]!)[0] ?? 'parameter'}}${strings[index + 1] ?? ''}`;
  }
  return { path: path(strings, ...params), template };
}
