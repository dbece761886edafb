import { describe, expect, it, vi } from 'vitest';
import { ResponseValidationError } from '../../src/index';
import { wireProduct, wireRefund } from '../helpers/kit-fixtures';
import { makeClient, PUBLIC_TOKEN, rejectionOf, reply, useMockApi } from '../helpers/msw-api';

/**
 * The spec marks "always present" only the user's name, code, status, type and email (§2.1). The
 * SDK also takes a resource's identity as always there (a product's or a refund's `hash`), and
 * refuses an answer without it under strict validation. The assumptions guide gives
 * `validateResponses: 'warn'` as the same-day way to take such answers while it is reported.
 */

useMockApi();

const withoutHash = <T extends { hash?: unknown }>(resource: T) => {
  const { hash: _hash, ...rest } = resource;
  return rest;
};

describe("an answer without its resource's identity", () => {
  it('is a ResponseValidationError naming the field, by default', async () => {
    reply('get', '/products/:hash', withoutHash(wireProduct('prd_1')));
    const error = await rejectionOf(makeClient().products.retrieve('prd_1'));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.path)).toEqual([
      ['hash'],
    ]);
  });

  it("is returned as it came, with a warning, under validateResponses: 'warn'", async () => {
    const refund = withoutHash(wireRefund());
    reply('get', '/financial/refund/:hash', { status: 'success', message: 'ok', data: [refund] });
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const client = makeClient({ validateResponses: 'warn', logger, logLevel: 'warn' });
    const refunds = await client.forUser(PUBLIC_TOKEN).refunds.list('trx_1');
    expect(refunds).toEqual([refund]);
    expect(logger.warn.mock.calls.flat().join('\n')).toMatch(/hash/);
  });
});
