/**
 * The login at `POST /auth` that turns `clientId` and `clientSecret` into a client token (its
 * path and shape are assumptions: `login` of the client's `assumptions` option).
 */

import { readLoginToken } from '../../assumption-readers';
import type { ResolvedAssumptions } from '../../assumptions';
import { APIError, makeAPIError, ResponseValidationError } from '../errors';
import type { APIPromise } from '../transport/api-promise';
import type { CallSpec } from '../transport/call-spec';

/** Logs in through `send` (the transport's own `call`) as `shape` says, and returns the client token. */
export async function login(
  send: (spec: CallSpec) => APIPromise<unknown>,
  clientId: string,
  clientSecret: string,
  shape: ResolvedAssumptions['login'],
): Promise<string> {
  const identity = { method: 'POST', path: shape.path } as const;
  const data = await send({
    method: 'POST',
    operation: 'auth.login',
    template: shape.path,
    path: shape.path,
    json: { [shape.body.clientId]: clientId, [shape.body.clientSecret]: clientSecret },
    replay: 'always',
    authenticate: false,
  }).catch((error: unknown) => {
    throw refusal(error, identity) ?? error;
  });
  const token = readLoginToken(data, shape.tokenField);
  if (token !== undefined) return token;
  throw new ResponseValidationError(identity, 200, data, [
    {
      path: shape.tokenField.split('.'),
      message: `the login response carries no ${shape.tokenField}`,
      code: 'invalid_type',
    },
  ]);
}

/** A refused login, said as such; `undefined` for any other failure. */
function refusal(error: unknown, identity: { method: 'POST'; path: string }): APIError | undefined {
  if (!(error instanceof APIError) || ![400, 401, 422].includes(error.status)) return undefined;
  return makeAPIError(
    identity,
    error.status,
    error.body,
    error.headers,
    'login refused: check clientId and clientSecret',
  );
}
