/**
 * A login the service answers with a success status but no usable token, as a partner meets it:
 * a `ResponseValidationError` with the status the service answered, and for a token no header can
 * carry, one naming the token's field without quoting the token.
 */

import { PartnerClient, ResponseValidationError } from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

const credentials = { clientId: 'login-client-id', clientSecret: 'login-client-secret' };

/** A client whose first login is answered `status` with `body`, the next ones with a good token. */
async function clientAnsweredAtLogin(status: number, body: unknown) {
  let logins = 0;
  const server = await stub((request, res) => {
    if (request.path !== '/auth') return json(res, 200, { hash: 'prd_1' });
    logins += 1;
    return logins === 1 ? json(res, status, body) : json(res, 200, { client_token: 'good-token' });
  });
  return new PartnerClient({ baseUrl: server.baseUrl, ...credentials, logLevel: 'off' });
}

describe('a login answered without a usable token', () => {
  it.each([200, 201, 203])(
    'says the status the service answered, %i, in the error and its message',
    async (status) => {
      const client = await clientAnsweredAtLogin(status, { status: 'success' });
      const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).status).toBe(status);
      expect((error as Error).message).toMatch(
        new RegExp(`^POST /auth → ${status} .*: the login response carries no client_token$`),
      );
    },
  );

  it.each([
    ['a line break', 'tok-secret-part\nsecond-line'],
    ['a character beyond Latin-1', 'tok-secret-part€'],
  ])(
    'reports a token holding %s as a bad answer naming its field, never quoting it, and logs in anew next call',
    async (_, token) => {
      const client = await clientAnsweredAtLogin(200, { client_token: token });
      const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      const { message, status, body } = error as ResponseValidationError;
      expect(status).toBe(200);
      expect(message).toMatch(/^POST \/auth → 200 OK: .*client_token.*no HTTP header can carry/);
      expect(`${message} ${JSON.stringify(body)}`).not.toContain('tok-secret-part');
      await expect(client.products.retrieve('prd_1')).resolves.toEqual({ hash: 'prd_1' });
    },
  );
});
