/**
 * Closed params at run time: a key the params schema does not document is refused before anything
 * is sent, naming the documented key it most likely meant (`prise` → `price`, `perPage` →
 * `per_page`). The types already refuse such a key at compile time; this catches JavaScript
 * callers and casts. The schemas themselves let unknown keys through (the testing kit validates a
 * Laravel service's way with them), so the check walks the schema's shape here instead.
 */

import type { $ZodType } from 'zod/v4/core';
import { isRecord } from '../../shared/is-record';
import type { ValidationIssue } from '../errors';

/** The parts of a zod definition the walk reads. */
interface Definition {
  type: string;
  innerType?: $ZodType;
  element?: $ZodType;
  shape?: Record<string, $ZodType>;
}

/**
 * The issues of every key in `value`, at any depth, that `schema` does not document. Walks only
 * the keys present, so a small params object costs a few lookups.
 */
export function unknownKeyIssues(schema: $ZodType, value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  walk(schema, value, [], issues);
  return issues;
}

/**
 * A schema's definition through zod's public `def` property, which every schema has (`zod/mini`
 * and classic alike) though the core type does not declare it.
 */
const definitionOf = (schema: $ZodType) => (schema as $ZodType & { def: Definition }).def;

function walk(schema: $ZodType, value: unknown, path: PropertyKey[], issues: ValidationIssue[]) {
  const def = definitionOf(schema);
  if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) {
    walk(def.innerType, value, path, issues);
  } else if (def.type === 'array' && def.element && Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      walk(def.element, value[index], path, issues);
      path.pop();
    }
  } else if (def.type === 'object' && def.shape && isRecord(value)) {
    const shape = def.shape;
    for (const key of Object.keys(value)) {
      path.push(key);
      if (Object.hasOwn(shape, key)) walk(shape[key] as $ZodType, value[key], path, issues);
      else issues.push(unknownKey(key, Object.keys(shape), [...path]));
      path.pop();
    }
  }
}

function unknownKey(key: string, documented: string[], path: PropertyKey[]): ValidationIssue {
  const guess = closestName(key, documented);
  const hint = guess === undefined ? '' : `; did you mean \`${guess}\`?`;
  return {
    path,
    code: 'unrecognized_keys',
    message: `not a documented parameter${hint}`,
  };
}

/** `perPage`, `per-page` and `PER_PAGE` all read as `perpage`. */
const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The documented name `key` most likely misspells: the same name in another case or separator
 * style, else the nearest by edit distance within a third of the key's length (at least one edit).
 */
export function closestName(key: string, documented: readonly string[]): string | undefined {
  const wanted = normalise(key);
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(wanted.length / 3)) + 1;
  for (const name of documented) {
    const distance = editDistance(wanted, normalise(name));
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return best;
}

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let row = [...Array(b.length + 1).keys()];
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        row[j]! + 1,
        next[j - 1]! + 1,
        row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length]!;
}
