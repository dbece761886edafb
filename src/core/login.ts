/**
 * The login at `POST /auth` that turns `clientId` and `clientSecret` into a client token (its
 * shape is an assumption: `LOGIN` in `assumptions.ts`).
 */

import { LOGIN } from '../assumptions';
import type { APIPromise } from './api-promise';
import type { CallSpec } from './call-spec';
import { APIError, makeAPIError, ResponseValidationError } from './errors';

const IDENTITY = { method: 'POST', path: LOGIN.path } as const;

/** Logs in through `send` (the transport's own `call`) and returns the client token. */
export async function login(
  send: (spec: CallSpec) => APIPromise<unknown>,
  clientId: string,
  clientSecret: string,
): Promise<string> {
  const data = await send({
    method: 'POST',
    path: LOGIN.path,
    json: LOGIN.body(clientId, clientSecret),
    replay: 'always',
    authenticate: false,
  }).catch((error: unknown) => {
    throw refusal(error) ?? error;
  });
  const token = LOGIN.readToken(data);
  if (token !== undefined) return token;
  throw new ResponseValidationError(IDENTITY, 200, data, [
    {
      path: ['client_token'],
      message: 'the login response carries no client_token',
      code: 'invalid_type',
    },
  ]);
}

/** A refused login, said as such; `undefined` for any other failure. */
function refusal(error: unknown): APIError | undefined {
  if (!(error instanceof APIError) || ![400, 401, 422].includes(error.status)) return undefined;
  return makeAPIError(
    IDENTITY,
    error.status,
    error.body,
    error.headers,
    'login refused: check clientId and clientSecret',
  );
}
