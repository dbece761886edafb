/**
 * The testing kit's seed given wrongly from plain JavaScript: an error naming what is wrong, thrown
 * when the kit is made, never the runtime's own `TypeError` from inside.
 */

import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../helpers/hostile-inputs';

describe('createMockPartnerApi from plain JavaScript', () => {
  it.each([
    ['null', null, 'seed'],
    ['a number', 5, 'seed'],
    ['a symbol productCount', { productCount: Symbol('n') }, 'productCount'],
    ['publicRoutes as a string', { publicRoutes: 'GET /users/fee-tiers/history' }, 'publicRoutes'],
    ['publicRoutes as an object', { publicRoutes: {} }, 'publicRoutes'],
  ])('refuses %s, naming it', (_, seed, named) => {
    expect(thrownBy(() => createMockPartnerApi(seed as never)).message).toContain(named);
  });
});
