/**
 * A client's pace bound to its budget, once as the client's transport is built.
 *
 * @module
 */

import type { ResolvedOptions } from '../options';
import type { BoundPace, RequestPace } from './index';

export type { BoundPace } from './index';

/**
 * Binds `pace` to the budget of these credentials: the base URL and the client id, or the client
 * token when there is none (a token function's value changes, so its clients share one budget
 * per base URL). The key may hold a token; the pace hashes it before it leaves the process.
 */
export function bindPace(pace: RequestPace, options: ResolvedOptions): BoundPace {
  const { clientToken, clientId, logger } = options;
  const holder = clientId ?? (typeof clientToken === 'string' ? clientToken : '');
  return pace.forClient({
    key: `${options.baseUrl} ${holder}`,
    warn: (message) => logger.warn(message),
  });
}
