/**
 * The testing kit parses a multipart body inside the partner's own test process. A field name must
 * never reach that process's prototypes, and any name must parse in linear time (a long name of
 * `[` once made the bracket pattern backtrack).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockPartnerApi, type MockPartnerApi } from '../../src/testing';
import { fieldPath, formToObject } from '../../src/testing/multipart';

const PROBES = ['polluted', 'isAdmin', 'x', 'constructor_marker'] as const;

/** Whatever a failing run leaked into the shared prototypes is removed, so other tests stay sound. */
afterEach(() => {
  for (const target of [Object.prototype, Array.prototype, Function.prototype]) {
    for (const key of PROBES) delete (target as unknown as Record<string, unknown>)[key];
  }
});

function leaked(): string[] {
  const fresh: Record<string, unknown> = {};
  const list: unknown[] = [];
  return PROBES.filter(
    (key) => fresh[key] !== undefined || (list as unknown as Record<string, unknown>)[key],
  );
}

function postProfile(mock: MockPartnerApi, form: FormData, signal?: AbortSignal) {
  return mock.fetch(`${mock.baseUrl}/users/update`, {
    method: 'POST',
    headers: {
      'X-Api-Client-Token': mock.credentials.clientToken,
      Authorization: `Bearer ${mock.sellers.person.publicToken}`,
    },
    body: form,
    signal,
  });
}

describe('testing kit multipart parsing', () => {
  it('does not pollute Object.prototype with a field named __proto__[polluted]', async () => {
    const mock = createMockPartnerApi();
    const form = new FormData();
    form.set('name', 'Maria Aparecida Souza');
    form.set('__proto__[polluted]', 'yes');
    form.set('constructor[prototype][isAdmin]', '1');
    form.set('address[__proto__][x]', 'yes');
    const res = await postProfile(mock, form);
    await res.arrayBuffer();
    expect(leaked()).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The service ignores fields it does not know: the answer is about the real fields only.
    expect(res.status).toBe(422);
  });

  it('answers a 200 KB field name of `[` well within its time budget', async () => {
    const mock = createMockPartnerApi();
    const form = new FormData();
    form.set('name', 'Maria Aparecida Souza');
    form.set(`a${'['.repeat(200_000)}`, 'x');
    form.set(`phones${'[0]'.repeat(30_000)}`, 'x');
    // A deadline far above a linear parse (milliseconds) and far below a quadratic one (~40 s
    // for this size at a0f3a0e): a guard against a hang, not a measurement.
    const started = performance.now();
    const res = await postProfile(mock, form, AbortSignal.timeout(10_000));
    await res.arrayBuffer();
    expect(res.status).toBe(422);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('reads bracket names as PHP does', () => {
    expect(fieldPath('name')).toEqual(['name']);
    expect(fieldPath('address[zip_code]')).toEqual(['address', 'zip_code']);
    expect(fieldPath('phones[0][number]')).toEqual(['phones', '0', 'number']);
    expect(fieldPath('phones[][type]')).toEqual(['phones', '', 'type']);
    expect(fieldPath('a[b]tail[c]')).toEqual(['a', 'b']);
    expect(fieldPath('a[b')).toEqual(['a_b']);
    expect(fieldPath('a[b][c')).toEqual(['a', 'b']);
    expect(fieldPath('[x]')).toEqual(['[x]']);
    expect(fieldPath(`a${'[x]'.repeat(65)}`)).toBeUndefined();

    const form = new FormData();
    form.append('phones[][type]', 'mobile');
    form.append('phones[][type]', 'work');
    const parsed = formToObject(form);
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(parsed.phones).toEqual([{ type: 'mobile' }, { type: 'work' }]);
  });

  it('never pollutes and keeps every object prototype-less, whatever the field names', () => {
    const segment = fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted', 'isAdmin', '0', '', 'x'),
      fc.string({ maxLength: 6 }),
    );
    const name = fc.oneof(
      fc
        .tuple(segment, fc.array(segment, { maxLength: 6 }))
        .map(([head, rest]) => head + rest.map((s) => `[${s}]`).join('')),
      fc.string({ unit: fc.constantFrom('[', ']', '_', 'a', '0'), maxLength: 200 }),
      fc.string({ maxLength: 40 }),
    );
    const fields = fc.array(fc.tuple(name, fc.constantFrom(...PROBES, '1', 'yes')), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(fields, (entries) => {
        const form = new FormData();
        for (const [n, v] of entries) form.append(n, v);
        const parsed = formToObject(form);
        expect(leaked()).toEqual([]);
        const walk = (value: unknown): void => {
          if (value === null || typeof value !== 'object') return;
          if (!Array.isArray(value)) expect(Object.getPrototypeOf(value)).toBeNull();
          for (const child of Object.values(value)) walk(child);
        };
        walk(parsed);
      }),
      { numRuns: 500 },
    );
  });

  it('splits any name into segments no longer than the name, in one bounded scan', () => {
    // Bounded work, measured without a clock: the segments are disjoint slices of the name, so
    // their total length never exceeds it, and the count of segments is at most PHP's depth.
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('[', ']', 'a', '_', '_proto_'), maxLength: 2_000 }),
        (n) => {
          const path = fieldPath(n);
          if (path === undefined) return;
          expect(path.length).toBeLessThanOrEqual(65);
          expect(path.join('').length).toBeLessThanOrEqual(n.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
