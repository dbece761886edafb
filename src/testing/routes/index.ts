/**
 * Every route of the mock, in matching order.
 *
 * @module
 */

import { type Route, routeKey, routeKeyOf } from '../router';
import { anticipationRoutes } from './anticipations';
import { authRoutes } from './auth';
import { feeTierRoutes } from './fee-tiers';
import { productRoutes } from './products';
import { refundRoutes } from './refunds';
import { statementRoutes } from './statements';
import { userRoutes } from './users';

export { downloadRoutes } from './statements';

/** Routes under the API base (`/api/v1`). */
export const apiRoutes: Route[] = [
  ...authRoutes,
  ...userRoutes,
  ...feeTierRoutes,
  ...productRoutes,
  ...refundRoutes,
  ...statementRoutes,
  ...anticipationRoutes,
];

/** The keys of the routes named in the seed's `publicRoutes`; an unknown route throws. */
export function publicRouteKeys(names: readonly string[]): Set<string> {
  const known = new Set(apiRoutes.map(routeKey));
  const keys = new Set<string>();
  for (const name of names) {
    const key = routeKeyOf(name);
    if (!known.has(key)) throw new TypeError(`publicRoutes: the kit has no route ${name}`);
    keys.add(key);
  }
  return keys;
}
