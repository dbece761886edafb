/**
 * The quick acceptance of response bodies (core/quick-accept.ts) must never say yes where zod
 * says no, nor keep a body zod would change: for every exported schema and generated JSON values
 * (near-valid ones built from the schema, with noise at every level), "accepted quickly" implies
 * zod's success with an equal result. A partner's own schemas always go to zod (issue 13, item 7).
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { acceptsFast } from '../../src/core/quick-accept';
import * as schemas from '../../src/schemas/index';

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

/**
 * Values with a `__proto__` key are left out of the agreement: zod copies such a key by assignment,
 * which sets the copy's prototype instead of keeping the field, while the quick path keeps the
 * body as `JSON.parse` made it (the key an own field). There the quick path is the safer one.
 */
const withoutProtoKey = (value: unknown) => !JSON.stringify(value ?? null).includes('"__proto__"');

const exported = (Object.entries(schemas) as Array<[string, unknown]>).filter(
  (entry): entry is [string, $ZodType] =>
    typeof entry[1] === 'object' && entry[1] !== null && '_zod' in entry[1],
);

describe('quick acceptance agrees with zod', () => {
  it('covers the exported schemas', () => {
    expect(exported.length).toBeGreaterThan(10);
  });

  for (const [name, schema] of exported) {
    it(`on ${name}`, () => {
      fc.assert(
        fc.property(near(schema).filter(withoutProtoKey), (value) => {
          if (!acceptsFast(schema, value)) return;
          const parsed = z.safeParse(schema, value);
          expect(parsed.success).toBe(true);
          expect(parsed.data).toEqual(value);
        }),
        { numRuns: 150 },
      );
    });
  }

  it('says yes for valid bodies of the schemas it models (the property is not vacuous)', () => {
    const accepted = exported.filter(([, schema]) =>
      fc.sample(near(schema), 200).some((value) => acceptsFast(schema, value)),
    );
    expect(accepted.length).toBeGreaterThan(exported.length / 3);
  });

  it('never accepts for a schema with a format, a check or a literal: zod decides', () => {
    const partnerSchemas: $ZodType[] = [
      z.looseObject({ id: z.uuid() }),
      z.looseObject({ n: z.int() }),
      z.looseObject({ at: z.iso.datetime() }),
      z.looseObject({ mail: z.email() }),
      z.looseObject({ name: z.string().check(z.minLength(3)) }),
      z.looseObject({ kind: z.literal('a') }),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...partnerSchemas), fc.jsonValue(), (schema, value) => {
        if (acceptsFast(schema, value)) expect(z.safeParse(schema, value).success).toBe(true);
      }),
    );
    for (const schema of partnerSchemas) {
      expect(
        acceptsFast(schema, { id: 'x', n: 1.5, at: 'x', mail: 'x', name: 'x', kind: 'b' }),
      ).toBe(false);
    }
  });
});
