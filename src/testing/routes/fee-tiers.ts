/**
 * `GET /users/fee-tiers/history` (§4.11): the envelope with the history, newest first.
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
    handle({ state }) {
      return envelope(state.feeTiers, 'Fee tier history retrieved successfully.');
    },
  },
];
