/**
 * Every route of the mock, in matching order.
 *
 * @module
 */

import { type Route, routeKey, routeKeyOf } from '../router';
import type { KitShapes } from '../shapes';
import { anticipationRoutes } from './anticipations';
import { authRoutes } from './auth';
import { feeTierRoutes } from './fee-tiers';
import { openApiRoute } from './openapi';
import { productRoutes } from './products';
import { refundRoutes } from './refunds';
import { statementRoutes } from './statements';
import { userRoutes } from './users';

export { downloadRoutes } from './statements';

/** Routes under the API base (`/api/v1`), the paths the spec does not show as `shapes` says. */
export function apiRoutes(shapes: KitShapes): Route[] {
  return [
    ...authRoutes(shapes),
    ...userRoutes,
    ...feeTierRoutes,
    ...productRoutes,
    ...refundRoutes(shapes),
    ...statementRoutes(shapes),
    ...anticipationRoutes,
    openApiRoute,
  ];
}

/** The keys of the routes named in the seed's `publicRoutes`; an unknown route throws. */
export function publicRouteKeys(names: readonly string[], routes: readonly Route[]): Set<string> {
  const known = new Set(routes.map(routeKey));
  const keys = new Set<string>();
  if (!Array.isArray(names)) {
    throw new TypeError(
      'publicRoutes: expected an array of route names, such as "GET /users/fee-tiers/history".',
    );
  }
  for (const name of names) {
    const key = routeKeyOf(name);
    if (!known.has(key)) throw new TypeError(`publicRoutes: the kit has no route ${name}`);
    keys.add(key);
  }
  return keys;
}
