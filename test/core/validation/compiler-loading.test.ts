/**
 * zod's compiler is a chunk of its own, loaded on demand: a client starts loading it when made
 * (unless it checks no response), and until it is in, or for good when it cannot load, responses
 * are checked by zod's interpreted parser with the same verdicts and issues. Each test loads the
 * SDK afresh (`vi.resetModules`), so that the compiler starts out not loaded.
 */

import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { ResponseValidationError } from '../../../src/core/errors';

type Validation = typeof import('../../../src/core/validation');

const answer = { identity: { method: 'GET', path: '/products/x' }, status: 200 };
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const strict = { validateResponses: 'strict' as const, logger: quiet };
/** A response schema as the SDK writes them: it only checks, unknown keys kept. */
const ProductSchema = z.looseObject({
  hash: z.string(),
  name: z.string(),
  category_id: z.number(),
});
const product = { hash: 'prd_1', name: 'Curso', category_id: 10 };

async function freshSdk() {
  vi.resetModules();
  const validation: Validation = await import('../../../src/core/validation');
  return { validation };
}

/** What checking `body` against `schema` gives: the body back, or the issues it was refused for. */
function verdict(validation: Validation, schema: unknown, body: unknown) {
  try {
    return { passed: validation.validateResponse({ schema } as never, body, answer, strict) };
  } catch (error) {
    if (!(error instanceof ResponseValidationError)) throw error;
    return { refused: error.issues };
  }
}

afterEach(() => {
  vi.doUnmock('../../../src/core/validation');
  vi.doUnmock('../../../src/core/validation/compiler');
  vi.resetModules();
});

describe('zod’s compiler, loaded on demand', () => {
  it('checks answers before it is in, as it does after: the same bodies pass, the same issues refuse', async () => {
    const { validation } = await freshSdk();
    const loose = { ...product, extra: 'kept' };
    const wrong = { ...product, category_id: 'ten' };
    expect(validation.compiled(ProductSchema)).toBe(ProductSchema);
    const before = [
      verdict(validation, ProductSchema, loose),
      verdict(validation, ProductSchema, wrong),
    ];

    await validation.loadCompiler();
    expect(validation.compiled(ProductSchema)).not.toBe(ProductSchema);
    const after = [
      verdict(validation, ProductSchema, loose),
      verdict(validation, ProductSchema, wrong),
    ];

    expect(after).toEqual(before);
    expect(before[0]).toEqual({ passed: loose });
    expect(before[1]).toEqual({
      refused: [expect.objectContaining({ path: ['category_id'], code: 'invalid_type' })],
    });
  });

  it('starts loading when a client that checks responses is made, not when one that does not is', async () => {
    vi.resetModules();
    const started = vi.fn(async () => {});
    vi.doMock('../../../src/core/validation', async (original) => ({
      ...(await original<Validation>()),
      loadCompiler: started,
    }));
    const { PartnerClient } = await import('../../../src/index');
    const base = {
      baseUrl: 'http://127.0.0.1:9/api/v1',
      clientToken: 't',
      logLevel: 'off' as const,
    };
    new PartnerClient({ ...base, validateResponses: 'off' });
    expect(started).not.toHaveBeenCalled();
    new PartnerClient(base);
    new PartnerClient({ ...base, validateResponses: 'warn' });
    expect(started).toHaveBeenCalledTimes(2);
  });

  it('where the chunk cannot load, checks every answer with zod’s interpreted parser', async () => {
    vi.doMock('../../../src/core/validation/compiler', () => {
      throw new Error('chunk dropped by a bundler');
    });
    const { validation } = await freshSdk();
    await expect(validation.loadCompiler()).resolves.toBeUndefined();
    expect(validation.compiled(ProductSchema)).toBe(ProductSchema);
    expect(verdict(validation, ProductSchema, product)).toEqual({ passed: product });
    expect(verdict(validation, ProductSchema, { ...product, category_id: 'ten' })).toEqual({
      refused: [expect.objectContaining({ path: ['category_id'], code: 'invalid_type' })],
    });
  });
});
