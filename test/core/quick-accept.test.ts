import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as zc from 'zod';
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { acceptsFast as acceptsFastCompiled } from '../../src/core/quick-accept';
import * as schemas from '../../src/schemas';

// The fast path must never accept what zod refuses, and on what it accepts the body it keeps must
// equal zod's output. It is checked here against zod itself, over values generated from each
// response schema and then broken one field at a time.

const RESPONSE_SCHEMAS = Object.entries(schemas).filter(
  ([name, value]) =>
    name.endsWith('Schema') &&
    !name.includes('Params') &&
    name !== 'BetweenDatesSchema' && // a request field
    typeof value === 'object',
) as [string, $ZodType][];

interface Def {
  type: string;
  innerType?: $ZodType;
  element?: $ZodType;
  shape?: Record<string, $ZodType>;
}

/** A deterministic pseudo-random source, so a failure replays. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const WRONG = [42, 'text', true, null, undefined, [], {}, Number.NaN];

/** A value `schema` accepts, with optional fields sometimes absent or null and unknown keys added. */
function sample(schema: $ZodType, next: () => number, depth = 0): unknown {
  const def = schema._zod.def as Def;
  switch (def.type) {
    case 'string':
      return `s${Math.floor(next() * 100)}`;
    case 'number':
      return Math.floor(next() * 1000) / 10;
    case 'boolean':
      return next() < 0.5;
    case 'optional':
      return next() < 0.2 ? undefined : sample(def.innerType!, next, depth);
    case 'nullable':
      return next() < 0.2 ? null : sample(def.innerType!, next, depth);
    case 'array':
      return Array.from({ length: depth > 2 ? 1 : 3 }, () => sample(def.element!, next, depth + 1));
    case 'object': {
      const result: Record<string, unknown> = { extra_key_from_the_future: 'kept' };
      for (const [key, field] of Object.entries(def.shape!)) {
        const value = sample(field, next, depth + 1);
        if (value !== undefined) result[key] = value;
      }
      return result;
    }
    default:
      return { anything: true };
  }
}

/** Paths of every value inside `value`, so that one of them can be broken. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const here = [prefix];
  if (Array.isArray(value))
    return here.concat(value.flatMap((item, i) => paths(item, [...prefix, i])));
  if (value && typeof value === 'object') {
    return here.concat(Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k])));
  }
  return here;
}

function replaced(value: unknown, path: (string | number)[], wrong: unknown): unknown {
  if (path.length === 0) return wrong;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  const [head, ...rest] = path;
  copy[head!] = replaced(copy[head!], rest, wrong);
  return copy;
}

/**
 * A fresh copy of the fast path, set up on a runtime whose Content-Security-Policy refuses code from
 * strings (Cloudflare Workers, strict browsers): `new Function` throws, so it interprets.
 */
async function loadWithoutCodeGeneration(): Promise<typeof acceptsFastCompiled> {
  vi.resetModules();
  const original = globalThis.Function;
  let refused = 0;
  globalThis.Function = new Proxy(original, {
    construct() {
      refused++;
      throw new EvalError('Code generation from strings disallowed for this context');
    },
  });
  try {
    const fresh = await import('../../src/core/quick-accept');
    fresh.acceptsFast(z.looseObject({ a: z.string() }), { a: 'x' }); // decides, under the policy
    expect(refused).toBe(1);
    return fresh.acceptsFast;
  } finally {
    globalThis.Function = original;
  }
}

describe.each([
  ['with generated code', async () => acceptsFastCompiled],
  ['without new Function', loadWithoutCodeGeneration],
])('acceptsFast %s', (_mode, load) => {
  let acceptsFast: typeof acceptsFastCompiled;
  beforeAll(async () => {
    acceptsFast = await load();
  });

  it('covers every response schema of the SDK', () => {
    expect(RESPONSE_SCHEMAS.length).toBeGreaterThan(10);
    const next = random(1);
    for (const [name, schema] of RESPONSE_SCHEMAS) {
      const value = sample(schema, next);
      expect(z.safeParse(schema, value).success, name).toBe(true);
      // Response schemas are all within the modelled part: a valid body never needs zod's parser.
      expect(acceptsFast(schema, value), name).toBe(true);
    }
  });

  it('agrees with zod on valid values and on values broken at any one place', () => {
    const next = random(7);
    for (const [name, schema] of RESPONSE_SCHEMAS) {
      for (let round = 0; round < 20; round++) {
        const valid = sample(schema, next);
        const all = paths(valid);
        const path = all[Math.floor(next() * all.length)]!;
        const broken = replaced(valid, path, WRONG[Math.floor(next() * WRONG.length)]);
        for (const value of [valid, broken]) {
          const parsed = z.safeParse(schema, value);
          if (acceptsFast(schema, value)) {
            expect(parsed.success, `${name} at ${path.join('.')}`).toBe(true);
            expect(parsed.data, `${name} at ${path.join('.')}`).toStrictEqual(value);
          }
        }
      }
    }
  });

  it('leaves to zod whatever could change the value or has rules of its own', () => {
    const cases: [$ZodType, unknown][] = [
      [z.object({ a: z.string() }), { a: 'x', extra: 1 }], // strips unknown keys
      [z.strictObject({ a: z.string() }), { a: 'x' }],
      [z.looseObject({ a: z.string().check(z.minLength(2)) }), { a: 'xy' }],
      [
        z.pipe(
          z.string(),
          z.transform((s) => s.length),
        ),
        'abc',
      ],
      [z._default(z.string(), 'd'), undefined],
      [z.union([z.string(), z.number()]), 'a'],
      [zc.looseObject({ when: zc.string().datetime() }), { when: '2025-01-01T00:00:00Z' }],
      [zc.looseObject({ n: zc.coerce.number() }), { n: 1 }],
    ];
    for (const [schema, value] of cases) expect(acceptsFast(schema, value)).toBe(false);
  });

  it('handles classic zod schemas of the same shapes, and refuses cycles without looping', () => {
    expect(acceptsFast(zc.looseObject({ a: zc.number().nullish() }), { a: null })).toBe(true);
    expect(acceptsFast(zc.looseObject({ a: zc.number() }), { a: Number.POSITIVE_INFINITY })).toBe(
      false,
    );
    const Node = zc.looseObject({
      name: zc.string(),
      get children() {
        return zc.array(Node);
      },
    });
    expect(acceptsFast(Node, { name: 'root', children: [] })).toBe(false);
    expect(Node.safeParse({ name: 'root', children: [] }).success).toBe(true);
  });
});
