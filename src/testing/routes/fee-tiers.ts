/**
 * `GET /users/fee-tiers/history` (§4.11): the envelope with the history of the authenticated
 * user (the seller whose bearer asks), newest first.
 *
 * @module
 */

import { envelope } from '../respond';
import type { Route } from '../router';

/** Fee-tier routes. */
export const feeTierRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/users/fee-tiers/history',
    auth: 'user',
    handle({ state, accountCode }) {
      const history = state.feeTiers.get(accountCode) ?? [];
      return envelope(history, 'Fee tier history retrieved successfully.');
    },
  },
];
