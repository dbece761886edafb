/**
 * Response validation runs zod's compiled parser (`compile`) on the SDK's own schemas: it must
 * answer exactly as zod's interpreted parser does. For every exported schema and generated JSON
 * values (near-valid ones built from the schema, with noise at every level), both agree on
 * success, on the parsed value and on every issue. A body that passes is returned as it came
 * (zod's compiled check, no copy built), which is only right while every SDK schema only checks:
 * the walk below refuses any schema kind that could change a value (a transform, a default, a
 * catch, a pipe), and the property compares `validateResponse`'s result with zod's own output.
 */

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { ResponseValidationError } from '../../../src/core/errors';
import { compiled, loadCompiler, toIssues, validateResponse } from '../../../src/core/validation';
import * as schemas from '../../../src/schemas/index';

interface Def {
  type: string;
  innerType?: $ZodType;
  element?: $ZodType;
  shape?: Record<string, $ZodType>;
  options?: $ZodType[];
  entries?: Record<string, string>;
  values?: unknown[];
}

/** Values shaped like `schema` (so the quick path has something to accept), noise mixed in. */
function near(schema: $ZodType, depth = 0): fc.Arbitrary<unknown> {
  const noise = fc.jsonValue({ maxDepth: 2 });
  if (depth > 5) return noise;
  const def = schema._zod.def as unknown as Def;
  let exact: fc.Arbitrary<unknown>;
  switch (def.type) {
    case 'string':
      exact = fc.string({ maxLength: 8 });
      break;
    case 'number':
      exact = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
      break;
    case 'boolean':
      exact = fc.boolean();
      break;
    case 'optional':
      exact = near(def.innerType!, depth + 1);
      break;
    case 'nullable':
      exact = fc.oneof(fc.constant(null), near(def.innerType!, depth + 1));
      break;
    case 'array':
      exact = fc.array(near(def.element!, depth + 1), { maxLength: 3 });
      break;
    case 'object': {
      const shape = def.shape ?? {};
      const fields = Object.fromEntries(
        Object.keys(shape).map((key) => [key, near(shape[key]!, depth + 1)]),
      );
      exact = fc
        .tuple(
          fc.record(fields, { requiredKeys: [] }),
          fc.dictionary(fc.string(), noise, { maxKeys: 2 }),
        )
        .map(([known, extra]) => ({ ...extra, ...known }));
      break;
    }
    case 'union':
      exact = fc.oneof(...(def.options ?? []).map((option) => near(option, depth + 1)));
      break;
    case 'enum':
      exact = fc.constantFrom(...Object.values(def.entries ?? { x: 'x' }));
      break;
    case 'literal':
      exact = fc.constantFrom(...(def.values ?? [null]));
      break;
    default:
      exact = noise;
  }
  return fc.oneof({ weight: 6, arbitrary: exact }, { weight: 1, arbitrary: noise });
}

const exported = (Object.entries(schemas) as Array<[string, unknown]>).filter(
  (entry): entry is [string, $ZodType] =>
    typeof entry[1] === 'object' && entry[1] !== null && '_zod' in entry[1],
);

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** `value` without its own `__proto__` keys, at any depth (each one kept as data by JSON.parse). */
function withoutProtoKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProtoKeys);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key !== '__proto__') copy[key] = withoutProtoKeys((value as Record<string, unknown>)[key]);
  }
  return copy;
}

/** What a parse says, in a form `toEqual` compares: success, value, and each issue's essentials. */
function outcome(result: ReturnType<typeof z.safeParse>) {
  return result.success
    ? { success: true, data: result.data }
    : {
        success: false,
        issues: result.error.issues.map(({ code, path, message }) => ({ code, path, message })),
      };
}

describe('compiled response validation agrees with zod', () => {
  // As a client does when made: zod's compiler is a chunk of its own, loaded on demand.
  beforeAll(() => loadCompiler());

  it('covers the exported schemas', () => {
    expect(exported.length).toBeGreaterThan(10);
  });

  it('compiles the SDK schemas (the property is not vacuous)', () => {
    const compiledOnes = exported.filter(([, schema]) => compiled(schema) !== schema);
    expect(compiledOnes.length).toBeGreaterThan(exported.length / 2);
  });

  it('compiles a schema once, on its first use', () => {
    const schema = z.looseObject({ id: z.string() });
    expect(compiled(schema)).toBe(compiled(schema));
  });

  it('every exported schema only checks: each kind in it returns its input unchanged', () => {
    const kinds = new Set<string>();
    const walk = (schema: $ZodType, depth: number): void => {
      const def = schema._zod.def as unknown as Def & { catchall?: $ZodType; checks?: $ZodType[] };
      kinds.add(def.type);
      // A check may rewrite the value too: `z.trim()`, `z.toLowerCase()`, `z.overwrite()`.
      for (const check of def.checks ?? []) {
        const kind = (check._zod.def as unknown as { check: string }).check;
        if (kind === 'overwrite') kinds.add('overwrite check');
      }
      if (depth > 12) return;
      const children = [
        def.innerType,
        def.element,
        def.catchall,
        ...Object.values(def.shape ?? {}),
        ...(def.options ?? []),
      ];
      for (const child of children) if (child) walk(child, depth + 1);
    };
    for (const [, schema] of exported) walk(schema, 0);
    const checkOnly = ['object', 'array', 'optional', 'nullable', 'union', 'unknown'];
    const leaves = ['string', 'number', 'boolean', 'enum', 'literal', 'null', 'never'];
    const allowed = [...checkOnly, ...leaves];
    expect([...kinds].filter((kind) => !allowed.includes(kind))).toEqual([]);
  });

  it('a body that passes is returned as it came: an own `__proto__` key stays data', () => {
    const body = JSON.parse('{"hash":"prd_1","__proto__":{"polluted":true},"extra":[1]}');
    const answer = { identity: { method: 'GET' as const, path: '/products/prd_1' }, status: 200 };
    const options = { validateResponses: 'strict' as const, logger: silent };
    const result = validateResponse({ schema: schemas.ProductSchema }, body, answer, options);
    expect(result).toBe(body);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  for (const [name, schema] of exported) {
    it(`validateResponse on ${name}: zod's parsed value, or its issues in a ResponseValidationError`, () => {
      const answer = { identity: { method: 'GET' as const, path: '/x' }, status: 200 };
      const options = { validateResponses: 'strict' as const, logger: silent };
      fc.assert(
        fc.property(near(schema), (value) => {
          const parsed = z.safeParse(schema, value);
          // The documented exception (docs/assumptions.md): an empty `[]` below the top where an
          // object is expected is PHP's empty object, taken as it came.
          const issues = parsed.success
            ? []
            : parsed.error.issues.filter((issue) => !emptyListForObject(issue, value));
          const expected =
            parsed.success || issues.length > 0 ? parsed : { success: true as const, data: value };
          const body = structuredClone(value);
          let got: unknown;
          try {
            got = { success: true, data: validateResponse({ schema }, body, answer, options) };
          } catch (error) {
            expect(error).toBeInstanceOf(ResponseValidationError);
            got = { success: false, issues: (error as ResponseValidationError).issues };
          }
          // zod's parse leaves out an own `__proto__` key of the objects it copies, where the body
          // keeps it as data: compared without them on both sides.
          expect(withoutProtoKeys(got)).toEqual(
            withoutProtoKeys(
              expected.success
                ? { success: true, data: expected.data }
                : { success: false, issues: toIssues(issues, value) },
            ),
          );
        }),
        { numRuns: 100 },
      );
    });

    it(`on ${name}`, () => {
      const fast = compiled(schema);
      fc.assert(
        fc.property(near(schema), (value) => {
          expect(outcome(z.safeParse(fast, value))).toEqual(outcome(z.safeParse(schema, value)));
        }),
        { numRuns: 150 },
      );
    });
  }
});

/** An `invalid_type` issue for an object that is an empty array, below the top of `value`. */
function emptyListForObject(issue: z.core.$ZodIssue, value: unknown): boolean {
  if (issue.code !== 'invalid_type' || issue.expected !== 'object' || issue.path.length === 0) {
    return false;
  }
  let at: unknown = value;
  for (const key of issue.path) at = (at as Record<PropertyKey, unknown> | undefined)?.[key];
  return Array.isArray(at) && at.length === 0;
}
