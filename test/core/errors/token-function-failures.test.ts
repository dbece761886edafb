/**
 * A client token function that gives no usable token is the partner's input, as a seller's token
 * function is (`forUser`): a `RequestValidationError` naming `clientToken`, nothing sent. It is no
 * `APIConnectionError`, whose documented meaning is a connection that failed or an answer spoilt on
 * its way, and which a partner's handler treats as a network fault.
 */

import {
  APIConnectionError,
  PartnerClient,
  type RequestValidationError,
  RequestValidationError as RequestValidationErrorClass,
  type TokenSource,
} from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';

const vaultDown = new Error('vault unreachable');

const functions: [string, TokenSource, RegExp][] = [
  ['returns an empty string', async () => '', /returned no token/],
  ['returns the token with its scheme', async () => 'Bearer tok-abc', /starts with "Bearer "/],
  [
    'throws',
    async () => {
      throw vaultDown;
    },
    /vault unreachable/,
  ],
];

describe('a client token function that gives no usable token', () => {
  for (const [what, clientToken, says] of functions) {
    it(`${what}: RequestValidationError naming clientToken, nothing sent`, async () => {
      const mock = createMockPartnerApi();
      const client = new PartnerClient({
        baseUrl: mock.baseUrl,
        fetch: mock.fetch,
        clientToken,
        logLevel: 'off',
      });
      const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationErrorClass);
      expect(error).not.toBeInstanceOf(APIConnectionError);
      const refused = error as RequestValidationError;
      expect(refused.issues.map((issue) => issue.path)).toEqual([['clientToken']]);
      expect(refused.message).toMatch(says);
      expect(refused.message).not.toContain('tok-abc');
      expect(mock.requests).toHaveLength(0);
    });
  }

  it("keeps the function's own error as cause", async () => {
    const mock = createMockPartnerApi();
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientToken: () => Promise.reject(vaultDown),
      logLevel: 'off',
    });
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect((error as Error).cause).toBe(vaultDown);
  });
});
