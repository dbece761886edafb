/**
 * Response validation runs zod's compiled parser (`compile`) on the SDK's own schemas: it must
 * answer exactly as zod's interpreted parser does. For every exported schema and generated JSON
 * values (near-valid ones built from the schema, with noise at every level), both agree on
 * success, on the parsed value and on every issue.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { compiled } from '../../../src/core/validation';
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

  for (const [name, schema] of exported) {
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
