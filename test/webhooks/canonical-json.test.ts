import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/webhooks/canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops white space', () => {
    expect(canonicalJson({ b: 1, a: [true, null, { d: 'x', c: 2 }] })).toBe(
      '{"a":[true,null,{"c":2,"d":"x"}],"b":1}',
    );
  });

  it('is JSON that reads back as the value, whatever the order of its keys', () => {
    const reversed = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(reversed);
      if (value === null || typeof value !== 'object') return value;
      const result: Record<string, unknown> = {};
      for (const key of Object.keys(value).reverse()) {
        Object.defineProperty(result, key, {
          value: reversed((value as Record<string, unknown>)[key]),
          enumerable: true,
        });
      }
      return result;
    };
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(reversed(value))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves out undefined and functions in objects and writes null for them in arrays', () => {
    expect(canonicalJson({ a: undefined, b: () => 1, c: [undefined, Number.NaN, 10n] })).toBe(
      '{"c":[null,null,10]}',
    );
  });

  it('walks a value nested 100,000 deep without overflowing the stack', () => {
    let value: unknown = 1;
    for (let depth = 0; depth < 100_000; depth += 1) value = { a: value };
    const text = canonicalJson(value);
    expect(text).toHaveLength('{"a":'.length * 100_000 + 1 + 100_000);
  });

  it('refuses a value that contains itself, but not one that repeats a shared part', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { again: cyclic };
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
  });
});
