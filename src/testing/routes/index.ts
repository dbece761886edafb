/**
 * Every route of the mock, in matching order.
 *
 * @module
 */

import type { Route } from '../router';
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
