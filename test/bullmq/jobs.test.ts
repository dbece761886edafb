/**
 * `jobIdOf` from plain JavaScript, through `partner-sdk/bullmq`: data that is no object, or lacks
 * the item's fields as strings, is refused with `RequestValidationError` naming the field, rather
 * than a bare `TypeError` or an id spelling `undefined`.
 */

import { RequestValidationError } from 'partner-sdk';
import { jobIdOf } from 'partner-sdk/bullmq';
import { describe, expect, it } from 'vitest';

describe('jobIdOf', () => {
  it("gives each item's id, its parts encoded", () => {
    expect(jobIdOf('refund-request', { transactionHash: 'trx_1' })).toBe('refund-request/trx_1');
    expect(jobIdOf('offer-update', { productHash: 'prd:1', offerCode: 'off 1' })).toBe(
      'offer-update/prd%3A1/off%201',
    );
  });

  it.each([
    ['undefined', 'refund-request', undefined, []],
    ['null', 'refund-wait', null, []],
    ['a string', 'refund-request', 'trx_1', []],
    ['an empty object', 'refund-request', {}, ['transactionHash']],
    [
      'a transaction hash that is a number',
      'refund-wait',
      { transactionHash: 1 },
      ['transactionHash'],
    ],
    ['an offer without its code', 'offer-update', { productHash: 'prd_1' }, ['offerCode']],
  ] as const)('refuses data that is %s, naming what is wrong', (_, name, data, path) => {
    let thrown: unknown;
    try {
      jobIdOf(name, data as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RequestValidationError);
    expect((thrown as RequestValidationError).issues[0]?.path).toEqual(path);
  });
});
