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
