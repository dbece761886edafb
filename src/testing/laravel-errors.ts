/**
 * Turns zod issues into the `errors` object of a Laravel 422 (`{ "phones.0.number": ["…"] }`),
 * worded the way Laravel words its validation messages. A schema's own custom message is kept.
 *
 * @module
 */

import type { core } from 'zod/mini';

type Issue = core.$ZodIssue;

/** zod's built-in English messages, which the mock rewords from the issue's data. */
const ZOD_DEFAULT = /^(Invalid|Too (small|big)|Unrecognized key|Input not instance)/;

/** A schema's own wording (`Must be at least 3 characters`) as a Laravel sentence about the field. */
function reword(attr: string, text: string): string {
  const body = text.replace(/\.$/, '');
  const lower = body.charAt(0).toLowerCase() + body.slice(1);
  if (/^Expected one of/.test(body)) return `The selected ${attr} is invalid.`;
  if (/^Expected /.test(body)) return `The ${attr} field must be ${lower.slice(9).split(':')[0]}.`;
  if (/^Must /.test(body)) return `The ${attr} field ${lower}.`;
  if (/^Required/.test(body)) return `The ${attr} field is ${lower}.`;
  return `${body}.`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** `address.zip_code` → `address.zip code`, as Laravel names an attribute in its messages. */
function attribute(path: readonly PropertyKey[]): string {
  return path.map(String).join('.').replaceAll('_', ' ') || 'payload';
}

function typeWord(expected: string): string {
  const words: Record<string, string> = {
    string: 'a string',
    number: 'a number',
    int: 'an integer',
    boolean: 'true or false',
    array: 'an array',
    object: 'an array',
  };
  return words[expected] ?? `a valid ${expected}`;
}

function sizeWord(origin: string): string {
  if (origin === 'string') return ' characters';
  if (origin === 'array' || origin === 'set') return ' items';
  if (origin === 'file') return ' kilobytes';
  return '';
}

function message(issue: Issue, root: unknown, path: readonly PropertyKey[]): string {
  const attr = attribute(path);
  const missing = valueAt(root, path) === undefined;
  if (missing && (issue.code === 'invalid_type' || issue.code === 'invalid_value'))
    return `The ${attr} field is required.`;
  if (issue.message && !ZOD_DEFAULT.test(issue.message)) return reword(attr, issue.message);
  switch (issue.code) {
    case 'invalid_type':
      return `The ${attr} field must be ${typeWord(issue.expected)}.`;
    case 'too_small': {
      const min = Number(issue.minimum) + (issue.inclusive === false ? 1 : 0);
      if (issue.origin === 'array' || issue.origin === 'set')
        return `The ${attr} field must have at least ${min} items.`;
      return `The ${attr} field must be at least ${min}${sizeWord(issue.origin)}.`;
    }
    case 'too_big': {
      const max = Number(issue.maximum) - (issue.inclusive === false ? 1 : 0);
      if (issue.origin === 'array' || issue.origin === 'set')
        return `The ${attr} field must not have more than ${max} items.`;
      return `The ${attr} field must not be greater than ${max}${sizeWord(issue.origin)}.`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return `The ${attr} field must be a valid email address.`;
      if (issue.format === 'url') return `The ${attr} field must be a valid URL.`;
      return `The ${attr} field format is invalid.`;
    case 'invalid_value':
      return `The selected ${attr} is invalid.`;
    case 'unrecognized_keys':
      return `The ${attr} field is prohibited.`;
    default:
      return `The ${attr} field is invalid.`;
  }
}

/** The branch of a union that came closest to matching: the one with the fewest issues. */
function push(out: Record<string, string[]>, key: string, text: string): void {
  out[key] = [...(out[key] ?? []), text];
}

function closestBranch(issue: core.$ZodIssueInvalidUnion): Issue[] | undefined {
  return [...issue.errors].sort((a, b) => a.length - b.length)[0];
}

/** Collects zod issues into Laravel's `errors` object, keys in dot form. */
export function laravelErrors(
  issues: readonly Issue[],
  root: unknown,
  base: readonly PropertyKey[] = [],
  out: Record<string, string[]> = {},
): Record<string, string[]> {
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union') {
      const branch = closestBranch(issue);
      if (branch && branch.length > 0) {
        laravelErrors(branch, root, path, out);
        continue;
      }
    }
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const keyPath = [...path, key];
        push(out, keyPath.join('.'), message(issue, root, keyPath));
      }
      continue;
    }
    push(out, path.join('.') || 'payload', message(issue, root, path));
  }
  return out;
}
