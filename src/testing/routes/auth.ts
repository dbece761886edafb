/**
 * The login (spec §5: path `/auth`, shape not shown). By default the kit takes a JSON body
 * `{ client_id, client_secret }` and answers `{ client_token }` (as the SDK assumes), or 401
 * `{ message }`; its path, field names and token field follow the seed's `assumptions.login`.
 *
 * @module
 */

import { errorMessage, json, unprocessable } from '../respond';
import type { Route } from '../router';
import { type KitShapes, nestedAt } from '../shapes';
import { randomId } from '../state';
import { displayName } from '../validation/laravel';

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The login route, at the path and with the fields `login` names. */
export function authRoutes({ login }: KitShapes): Route[] {
  const { clientId: idField, clientSecret: secretField } = login.body;
  return [
    {
      method: 'POST',
      pattern: login.path,
      auth: 'none',
      handle({ body, state }) {
        const input = (body ?? {}) as Record<string, unknown>;
        const clientId = str(input[idField]);
        const clientSecret = str(input[secretField]);
        const errors: Record<string, string[]> = {};
        for (const [field, value] of [
          [idField, clientId],
          [secretField, clientSecret],
        ] as const) {
          if (!value) errors[field] = [`The ${displayName(field)} field is required.`];
        }
        if (Object.keys(errors).length > 0) return unprocessable(errors);
        if (clientId !== state.clientId || clientSecret !== state.clientSecret) {
          return errorMessage(401, 'Invalid client credentials.');
        }
        const token = randomId('ct', 40);
        state.clientTokens.add(token);
        return json(nestedAt(login.tokenField, token));
      },
    },
  ];
}
