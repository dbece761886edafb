/**
 * The login at `POST /auth` that turns `clientId` and `clientSecret` into a client token (its
 * path and shape are assumptions: `login` of the client's `assumptions` option), and a client's
 * token manager that logs in with it.
 */

import { readLoginToken } from '../../assumption-readers';
import type { ResolvedAssumptions } from '../../assumptions';
import { APIError, makeAPIError, ResponseValidationError } from '../errors';
import { bodyMessage, firstFieldError } from '../errors/error-body';
import { registerSecret } from '../logging/known-secrets';
import type { ResolvedOptions } from '../options';
import type { Clock } from '../time/clock';
import type { APIPromise } from '../transport/api-promise';
import type { CallSpec } from '../transport/call-spec';
import { ClientTokenManager, NOT_IN_HEADER, NOT_IN_HEADER_NAMED } from './token-manager';

/** Logs in through `send` (the transport's own `call`) as `shape` says, and returns the client token. */
export async function login(
  send: (spec: CallSpec) => APIPromise<unknown>,
  clientId: string,
  clientSecret: string,
  shape: ResolvedAssumptions['login'],
): Promise<string> {
  const identity = { method: 'POST', path: shape.path } as const;
  const { data, response } = await send({
    method: 'POST',
    operation: 'auth.login',
    template: shape.path,
    path: shape.path,
    json: { [shape.body.clientId]: clientId, [shape.body.clientSecret]: clientSecret },
    replay: 'always',
    authenticate: false,
  })
    .withResponse()
    .catch((error: unknown) => {
      throw refusal(error, identity, shape.body) ?? error;
    });
  const token = readLoginToken(data, shape.tokenField);
  const wrong =
    token === undefined
      ? { message: `the login response carries no ${shape.tokenField}`, code: 'invalid_type' }
      : NOT_IN_HEADER.test(token)
        ? {
            // A bad answer, not a failed connection; the token is masked in the body kept, and
            // never quoted in the message.
            message: `the login response's ${shape.tokenField} contains ${NOT_IN_HEADER_NAMED}`,
            code: 'invalid_value',
          }
        : undefined;
  if (!wrong) return token!;
  registerSecret(token);
  // At the root, so that the message says what came instead (an HTML page, JSON cut short, an
  // empty body), and never reads `client_token: …`, which the redaction of messages would mask.
  throw new ResponseValidationError(identity, response.status, data, [{ path: [], ...wrong }]);
}

/**
 * A refused login, said as such with the service's own words and what the spec says may cause it;
 * `undefined` for any other failure. A 401 is the credentials, or the origin: the service rejects a
 * call from an IP address or domain not registered for the client, with a status the spec does not
 * show (§5.6). A 400 or 422 is a login it could not read: the credentials, or the fields they are
 * sent in, which are an assumption (§5.2 does not show the login's shape).
 */
function refusal(
  error: unknown,
  identity: { method: 'POST'; path: string },
  fields: ResolvedAssumptions['login']['body'],
): APIError | undefined {
  if (!(error instanceof APIError) || ![400, 401, 422].includes(error.status)) return undefined;
  const said =
    (error.status === 422 ? firstFieldError(error.body) : undefined) ?? bodyMessage(error.body);
  const cause =
    error.status === 401
      ? 'that calls come from an IP address or domain registered for this client (spec §5.6)'
      : `that the service takes them as ${fields.clientId} and ${fields.clientSecret} (the spec does not show the login's fields: the \`login\` assumption)`;
  return makeAPIError(
    identity,
    error.status,
    error.body,
    error.headers,
    `login refused${said ? ` (${said})` : ''}: check clientId and clientSecret, and ${cause}`,
  );
}

/**
 * The client token of a client made with `options`: given, or from logins sent through `send`
 * (shared with other processes through the `tokenStore`, under the base URL and client id), on
 * the client's `clock`.
 */
export function clientTokens(
  options: ResolvedOptions,
  send: (spec: CallSpec) => APIPromise<unknown>,
  clock: Clock,
): ClientTokenManager {
  return new ClientTokenManager({
    ...options,
    now: () => clock.now(),
    login: (id, secret) => login(send, id, secret, options.assumptions.login),
    shared: options.tokenStore && {
      store: options.tokenStore,
      key: `${options.baseUrl} ${options.clientId}`,
      warn: (message) => options.logger.warn(message),
    },
  });
}
