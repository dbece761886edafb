import { expect } from 'vitest';
import type * as z from 'zod/mini';
import { toIssues } from '../../src/core/validation';

/**
 * Paths of the issues a parse reports, dot-joined (`[]` when it passes), as the SDK's errors name
 * them: a union's issue (an object that may come as `[]`) at the path of its closest alternative.
 */
export function issuePaths(schema: z.ZodMiniType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success
    ? []
    : toIssues(result.error.issues, value).map((issue) => issue.path.join('.'));
}

/** Asserts the value passes. */
export function expectValid(schema: z.ZodMiniType, value: unknown): void {
  expect(issuePaths(schema, value)).toEqual([]);
}

/** Asserts the value fails with exactly one issue, at `path`, and returns its message. */
export function expectIssueAt(schema: z.ZodMiniType, value: unknown, path: string): string {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  const issues = result.success ? [] : result.error.issues;
  expect(issues.map((issue) => issue.path.join('.'))).toEqual([path]);
  return issues[0]?.message ?? '';
}

/** A deep copy of `base` with `value` set at the dot-separated `path` (`undefined` deletes it). */
export function withField(base: object, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(base) as Record<string, unknown>;
  const keys = path.split('.');
  let target: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) {
    target[key] ??= {};
    target = target[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1] as string;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}
