import { describe, expect, it } from 'vitest';
import { PartnerClient, RequestValidationError } from '../src/index';

// A token that no HTTP header can carry is refused where it is given, never quoted: fetch would
// otherwise fail on it with an error that reads like a connection failure.

const client = new PartnerClient({
  baseUrl: 'https://partner.test/api/v1',
  clientToken: 'for-user-client-token',
  logLevel: 'off',
});

/** What `forUser(token)` throws (`undefined` when it accepts the token). */
function forUserError(token: string): unknown {
  try {
    client.forUser(token);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('forUser', () => {
  it.each([
    ['a line break', 'eyJ.seller\r\nx-injected: 1'],
    ['a character beyond Latin-1', 'eyJ.seller€token'],
  ])('refuses a public token with %s, not quoting it', (_what, token) => {
    const error = forUserError(token);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['publicToken']);
    expect((error as Error).message).toMatch(/no HTTP header can carry/);
    expect((error as Error).message).not.toContain('seller');
  });

  it.each(['Bearer eyJ.seller-token', 'bearer\teyJ.seller-token'])(
    'refuses a public token given with its scheme (%j), which would be sent as "Bearer Bearer"',
    (token) => {
      const error = forUserError(token);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.path).toEqual(['publicToken']);
      expect((error as Error).message).toMatch(/starts with "Bearer ": give the token alone/);
      expect((error as Error).message).not.toContain('seller-token');
    },
  );

  it('refuses a token function that answers with the scheme, before anything is sent', async () => {
    let sent = 0;
    const counting = new PartnerClient({
      baseUrl: 'https://partner.test/api/v1',
      clientToken: 'for-user-client-token',
      logLevel: 'off',
      fetch: async () => {
        sent += 1;
        return new Response('{}', { status: 200 });
      },
    });
    const error = await counting
      .forUser(() => 'Bearer eyJ.seller-token')
      .products.retrieve('prd_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['publicToken']);
    expect((error as Error).message).toMatch(/starts with "Bearer "/);
    expect((error as Error).message).not.toContain('seller-token');
    expect(sent).toBe(0);
  });

  it('refuses a client token given with a scheme at construction, not quoting it', () => {
    expect(
      () =>
        new PartnerClient({
          baseUrl: 'https://partner.test/api/v1',
          clientToken: 'Bearer client-token-value',
          logLevel: 'off',
        }),
    ).toThrowError(/clientToken` starts with "Bearer "/);
  });

  it('refuses a client token beyond Latin-1 at construction, not quoting it', () => {
    expect(
      () =>
        new PartnerClient({
          baseUrl: 'https://partner.test/api/v1',
          clientToken: 'client-token-€',
          logLevel: 'off',
        }),
    ).toThrowError(/clientToken.*no HTTP header can carry/);
  });
});
