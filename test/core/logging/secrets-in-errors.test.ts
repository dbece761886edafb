import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../../src/index';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

const secret = 'err-client-secret-31337';
const clientToken = 'err-client-token-4242';
const publicToken = 'err-public-token-5151';

function renderings(error: unknown): string[] {
  const e = error as Error;
  return [
    e.message,
    String(e),
    JSON.stringify(e),
    inspect(e, { depth: 20, showHidden: true }),
    e.stack ?? '',
  ];
}

describe('secrets in errors', () => {
  it.each([401, 422, 500])(
    'never appear in a %i error, even echoed by the service',
    async (status) => {
      const server = await stub((req, res) =>
        req.path === '/auth'
          ? json(res, 200, { client_token: clientToken })
          : json(res, status, {
              message: `Rejected token ${clientToken} for ${publicToken}`,
              client_token: clientToken,
              public_token: publicToken,
              errors: { client_secret: [secret] },
            }),
      );
      const client = new PartnerClient({
        baseUrl: server.baseUrl,
        clientId: 'id-1',
        clientSecret: secret,
        maxRetries: 0,
        logLevel: 'off',
      });
      const error = await client
        .forUser(publicToken)
        .request({ method: 'GET', path: '/x' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      for (const text of renderings(error)) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(clientToken);
        expect(text).not.toContain(publicToken);
      }
    },
  );

  it("keeps a session cookie the service sets out of an error's headers, as a credential", async () => {
    const session = 'laravel_session=eyJpdiI6IkNvb2tpZVNlc3Npb24xMjMifQ; path=/; httponly';
    const server = await stub((_req, res) =>
      json(res, 500, { message: 'Server Error' }, { 'set-cookie': session }),
    );
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken,
      maxRetries: 0,
      logLevel: 'off',
    });
    const error = (await client
      .request({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e)) as { headers: Headers };
    expect(error.headers.get('set-cookie')).toBe('[REDACTED]');
    for (const text of renderings(error)) expect(text).not.toContain('CookieSession');
  });

  it('never appear in a connection error', async () => {
    const server = await stub((_req, res) => {
      res.socket?.destroy();
    });
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken,
      maxRetries: 0,
      logLevel: 'off',
    });
    const error = await client
      .forUser(publicToken)
      .request({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e);
    for (const text of renderings(error)) {
      expect(text).not.toContain(clientToken);
      expect(text).not.toContain(publicToken);
    }
  });
});
