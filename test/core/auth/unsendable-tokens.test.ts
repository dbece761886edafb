/**
 * A client token that no HTTP header can carry (a line break, NUL, a character beyond Latin-1),
 * handed over by the partner's token function or by a shared token store, is the partner's input:
 * named as coming from where it came, never quoted (it may be a real token with a stray line
 * break), and never sent.
 */

import { type Logger, PartnerClient, RequestValidationError } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';

const mock = createMockPartnerApi();
const UNSENDABLE = ['tok-a\r\nX-Injected: 1', 'tok-b\u0141', 'tok-c\0'];

describe('client tokens no header can carry', () => {
  it.each(UNSENDABLE)(
    'from a token function on renewal: a RequestValidationError naming clientToken (%j)',
    async (unsendable) => {
      let calls = 0;
      const client = new PartnerClient({
        baseUrl: mock.baseUrl,
        fetch: mock.fetch,
        // The first token is one the service never issued: its 401 asks the function again.
        clientToken: async () => (calls++ === 0 ? 'tok-never-issued' : unsendable),
        maxRetries: 0,
        logLevel: 'off',
      });
      const error = (await client
        .request({ method: 'GET', path: '/products' })
        .catch((caught: unknown) => caught)) as RequestValidationError;
      expect(calls).toBe(2);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error.issues[0]?.path).toEqual(['clientToken']);
      expect(error.message).toMatch(/no HTTP header can carry/);
      expect(JSON.stringify(error)).not.toContain(unsendable.slice(0, 5));
    },
  );

  it.each(UNSENDABLE)(
    'from a token store: set aside with a warning naming the store, the client logs in itself (%j)',
    async (unsendable) => {
      const warnings: string[] = [];
      const quiet = () => {};
      const logger: Logger = {
        error: quiet,
        warn: (message: string) => warnings.push(message),
        info: quiet,
        debug: quiet,
      };
      const client = new PartnerClient({
        baseUrl: mock.baseUrl,
        fetch: mock.fetch,
        clientId: mock.credentials.clientId,
        clientSecret: mock.credentials.clientSecret,
        tokenStore: { obtain: async () => unsendable },
        maxRetries: 0,
        logger,
      });
      const page = await client.request({ method: 'GET', path: '/products' });
      expect(page).toBeDefined();
      expect(warnings.join('\n')).toMatch(/client token store .*logging in from this process/);
      expect(warnings.join('\n')).not.toContain(unsendable.slice(0, 5));
    },
  );
});
