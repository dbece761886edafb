/**
 * `POST /auth` (spec §5). The spec does not show its shape; DESIGN §6 assumes a JSON body
 * `{ client_id, client_secret }` answered by `{ client_token }`, and a 401 `{ message }` otherwise.
 *
 * @module
 */

import { errorMessage, json, unprocessable } from '../respond';
import type { Route } from '../router';
import { randomId } from '../state';

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The login route. */
export const authRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/auth',
    auth: 'none',
    handle({ body, state }) {
      const input = (body ?? {}) as Record<string, unknown>;
      const clientId = str(input.client_id);
      const clientSecret = str(input.client_secret);
      const errors: Record<string, string[]> = {};
      if (!clientId) errors.client_id = ['The client id field is required.'];
      if (!clientSecret) errors.client_secret = ['The client secret field is required.'];
      if (Object.keys(errors).length > 0) return unprocessable(errors);
      if (clientId !== state.clientId || clientSecret !== state.clientSecret) {
        return errorMessage(401, 'Invalid client credentials.');
      }
      const token = randomId('ct', 40);
      state.clientTokens.add(token);
      return json({ client_token: token });
    },
  },
];
