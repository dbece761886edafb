import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import {
  envelope,
  type OfferSchema,
  openEnum,
  type Refund,
  type UpdateUserParams,
  type User,
} from '../../src/schemas';
import { uploadable } from '../../src/schemas/request-rules';

describe('openEnum', () => {
  it('accepts any string and nothing else', () => {
    const status = openEnum(['requested', 'success']);
    expect(status.parse('requested')).toBe('requested');
    expect(status.parse('brand-new')).toBe('brand-new');
    expect(status.safeParse(3).success).toBe(false);
  });

  it('types the known values first, any string after', () => {
    const status = openEnum(['requested', 'success']);
    expectTypeOf<z.infer<typeof status>>().toEqualTypeOf<'requested' | 'success' | (string & {})>();
    expectTypeOf<Refund['status']>().toEqualTypeOf<
      'requested' | 'success' | 'completed' | 'failed' | (string & {}) | null | undefined
    >();
  });
});

describe('envelope', () => {
  it('wraps any data schema', () => {
    const schema = envelope(z.array(z.number()));
    expect(schema.parse({ status: 'success', message: 'ok', data: [1] }).data).toEqual([1]);
  });
});

describe('inferred types', () => {
  it('make identity and always-present fields required, others optional and nullable', () => {
    expectTypeOf<User['code']>().toEqualTypeOf<string>();
    expectTypeOf<User['about']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<z.infer<typeof OfferSchema>['price']>().toEqualTypeOf<number | null | undefined>();
  });

  it('type request params without null where the spec does not allow it', () => {
    expectTypeOf<UpdateUserParams['name']>().toEqualTypeOf<string>();
    expectTypeOf<UpdateUserParams['nickname']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<UpdateUserParams['company_type']>().toEqualTypeOf<
      'mei' | 'simple' | 'presumed' | 'real' | undefined
    >();
  });
});

describe('uploadable', () => {
  it('accepts every kind of file part and refuses anything else with a message naming them', () => {
    const file = uploadable();
    const parts = [
      new Blob(['x']),
      new File(['x'], 'x.png'),
      new Uint8Array([1]),
      new ArrayBuffer(1),
      new ReadableStream(),
    ];
    for (const part of parts) expect(file.safeParse(part).success).toBe(true);
    for (const wrong of ['avatar.png', 42, null, {}]) {
      const result = file.safeParse(wrong);
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([
        expect.objectContaining({
          code: 'custom',
          message: 'Expected a file: Blob, File, Uint8Array, ArrayBuffer or ReadableStream',
        }),
      ]);
    }
  });
});
