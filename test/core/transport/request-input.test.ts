/**
 * A call's `RequestOptions`, and `client.request`'s request, given wrongly from plain JavaScript:
 * refused with the SDK's error before anything is sent, never sent with `[object Object]`,
 * `Symbol(…)` or a body JSON cannot carry. `as never` marks what the types already refuse.
 */

import { describe, expect, it } from 'vitest';
import { hostileService, outcomeOf } from '../../helpers/hostile-inputs';

const start = hostileService();

describe('request options from plain JavaScript', () => {
  it.each([
    ['null', null],
    ['a number', 5],
    ['an array', []],
    ['a misspelt key', { timout: 5 }],
    ['a signal that is no AbortSignal', { signal: { aborted: false } }],
    ['headers as an array', { headers: ['x-a'] }],
    ['a symbol timeout', { timeout: Symbol('ms') }],
    ['a nested extraQuery value', { extraQuery: { filter: { status: 'approved' } } }],
    ['a symbol extraQuery value', { extraQuery: { status: Symbol('s') } }],
    ['a bigint in extraBody', { extraBody: { amount: 10n } }],
    ['extraBody as an array', { extraBody: [1] }],
    ['a function in extraBody', { extraBody: { amount: () => 10 } }],
  ])('refuse %s, nothing sent', async (_, options) => {
    const { seller, sent } = await start();
    const outcome = await outcomeOf(() =>
      seller.offers.update('prd_1', 'off_1', { price: 100 }, options as never),
    );
    expect(outcome).toMatchObject({ kind: 'refused' });
    expect(sent()).toEqual([]);
  });
});

describe('client.request from plain JavaScript', () => {
  it.each([
    ['no request', undefined],
    ['a method that is no HTTP method', { method: 5, path: '/x' }],
    ['a schema that is no zod schema', { method: 'GET', path: '/x', schema: 5 }],
    ['a nested query value', { method: 'GET', path: '/x', query: { a: { b: 1 } } }],
    ['a bigint body', { method: 'POST', path: '/x', body: { amount: 1n } }],
    ['a symbol in the body', { method: 'POST', path: '/x', body: { amount: Symbol('n') } }],
  ])('client.request with %s is refused, nothing sent', async (_, request) => {
    const { seller, sent } = await start();
    const outcome = await outcomeOf(() => seller.request(request as never));
    expect(outcome).toMatchObject({ kind: 'refused' });
    expect(sent()).toEqual([]);
  });
});
