import { afterEach, describe, expect, it, vi } from 'vitest';
import packageJson from '../../../package.json' with { type: 'json' };
import { type ClientOptions, PartnerClient, PartnerError } from '../../../src/index';
import { VERSION } from '../../../src/version';
import { json, startStub } from '../../helpers/stub-server';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('PartnerClient options', () => {
  it('refuses a missing baseUrl, naming the option and its variable', () => {
    vi.stubEnv('PARTNER_API_BASE_URL', '');
    expect(() => new PartnerClient({ clientToken: 'tok-123456' })).toThrow(PartnerError);
    expect(() => new PartnerClient({ clientToken: 'tok-123456' })).toThrow(
      /`baseUrl` is missing.*PARTNER_API_BASE_URL/,
    );
  });

  it('refuses a malformed baseUrl', () => {
    expect(
      () => new PartnerClient({ baseUrl: 'partner.example.com/api/v1', clientToken: 'tok-123456' }),
    ).toThrow(/`baseUrl` is not an absolute URL/);
    expect(
      () => new PartnerClient({ baseUrl: 'ftp://partner.example.com', clientToken: 'tok-123456' }),
    ).toThrow(/http or https/);
  });

  it('refuses a baseUrl carrying a user or password, never quoting them', () => {
    for (const baseUrl of [
      'https://partner:pw-in-url-0003@partner.example.com/api/v1',
      'https://pw-in-url-0003@partner.example.com/api/v1',
    ]) {
      let error: unknown;
      try {
        new PartnerClient({ baseUrl, clientToken: 'tok-123456' });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(PartnerError);
      expect((error as Error).message).toMatch(/`baseUrl` must not carry a user name or password/);
      expect((error as Error).message).not.toContain('pw-in-url-0003');
    }
  });

  it('refuses a client with neither credentials nor token', () => {
    vi.stubEnv('PARTNER_API_CLIENT_ID', '');
    vi.stubEnv('PARTNER_API_CLIENT_SECRET', '');
    vi.stubEnv('PARTNER_API_CLIENT_TOKEN', '');
    expect(() => new PartnerClient({ baseUrl: 'https://partner.example.com/api/v1' })).toThrow(
      /no credentials/,
    );
  });

  it('refuses half a pair of credentials', () => {
    expect(
      () =>
        new PartnerClient({ baseUrl: 'https://partner.example.com/api/v1', clientId: 'id-only' }),
    ).toThrow(/`clientSecret` \(or PARTNER_API_CLIENT_SECRET\) is missing/);
  });

  it('refuses out-of-range numbers and unknown modes', () => {
    const base = { baseUrl: 'https://partner.example.com/api/v1', clientToken: 'tok-123456' };
    expect(() => new PartnerClient({ ...base, timeout: 0 })).toThrow(/`timeout`/);
    expect(() => new PartnerClient({ ...base, totalTimeout: -1 })).toThrow(/`totalTimeout`/);
    expect(() => new PartnerClient({ ...base, maxRetries: 1.5 })).toThrow(/`maxRetries`/);
    for (const maxRetries of [-1, 11]) {
      expect(() => new PartnerClient({ ...base, maxRetries })).toThrow(
        /`maxRetries` must be a whole number from 0 to 10/,
      );
    }
    expect(() => new PartnerClient({ ...base, maxRetries: 10 })).not.toThrow();
    // @ts-expect-error: an invalid mode, as plain JavaScript could pass
    expect(() => new PartnerClient({ ...base, validateResponses: 'loose' })).toThrow(
      /`validateResponses`/,
    );
    // @ts-expect-error: an invalid level
    expect(() => new PartnerClient({ ...base, logLevel: 'verbose' })).toThrow(/`logLevel`/);
  });

  it('reads baseUrl and credentials from the environment', () => {
    vi.stubEnv('PARTNER_API_BASE_URL', 'https://env.example.com/api/v1');
    vi.stubEnv('PARTNER_API_CLIENT_ID', 'env-id');
    vi.stubEnv('PARTNER_API_CLIENT_SECRET', 'env-secret-value');
    expect(() => new PartnerClient()).not.toThrow();
  });

  it('reads baseUrl and credentials given as undefined from the environment', () => {
    vi.stubEnv('PARTNER_API_BASE_URL', 'https://env.example.com/api/v1');
    vi.stubEnv('PARTNER_API_CLIENT_TOKEN', 'env-client-token');
    const unset: Record<string, string | undefined> = {};
    const options = {
      baseUrl: unset.BASE_URL,
      clientId: unset.CLIENT_ID,
      clientSecret: unset.CLIENT_SECRET,
      clientToken: unset.CLIENT_TOKEN,
    };
    expect(() => new PartnerClient(options)).not.toThrow();
  });

  it('takes every option given as undefined as absent, and withOptions keeps the parent value for it', async () => {
    const sent: string[] = [];
    const failing: typeof fetch = async (input) => {
      sent.push(String(input instanceof Request ? input.url : input));
      return new Response('{"message":"Service Unavailable."}', {
        status: 503,
        headers: { 'content-type': 'application/json' },
      });
    };
    const unset = {
      timeout: undefined,
      totalTimeout: undefined,
      maxRetries: undefined,
      maxResponseBytes: undefined,
      maxUploadBytes: undefined,
      logger: undefined,
      validateResponses: undefined,
      defaultHeaders: undefined,
      tokenStore: undefined,
      assumptions: undefined,
      telemetry: undefined,
      pace: undefined,
    } satisfies ClientOptions;
    const parent = new PartnerClient({
      ...unset,
      baseUrl: 'http://127.0.0.1:9/api/v1',
      clientToken: 'tok-123456',
      logLevel: 'off',
      maxRetries: 0,
      fetch: failing,
    });
    const child = parent.withOptions({ ...unset, logLevel: undefined, fetch: undefined });
    await expect(child.products.list()).rejects.toMatchObject({ status: 503 });
    // The parent's maxRetries (0) and fetch stood: one request, through the parent's fetch.
    expect(sent).toHaveLength(1);
  });

  it('never shows the secret in an option error', () => {
    try {
      new PartnerClient({ baseUrl: 'nope', clientId: 'id', clientSecret: 'very-secret-value-9' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain('very-secret-value-9');
    }
  });

  it('reports the same version as package.json', () => {
    expect(VERSION).toBe(packageJson.version);
  });
});

describe('headers of your own', () => {
  it("never override the SDK's authentication headers, from defaultHeaders or a call's headers", async () => {
    const server = await startStub((_request, res) => json(res, 200, {}));
    try {
      const client = new PartnerClient({
        baseUrl: server.baseUrl,
        clientToken: 'own-headers-token',
        logLevel: 'off',
        defaultHeaders: { 'X-Api-Client-Token': 'from-defaults', Authorization: 'Bearer defaults' },
      });
      const seller = client.forUser('own-headers-public');
      await seller.request({ method: 'GET', path: '/x' });
      await seller.request(
        { method: 'GET', path: '/x' },
        {
          headers: {
            'x-api-client-token': 'from-call',
            authorization: 'Bearer call',
            'x-own': '1',
          },
        },
      );
      for (const request of server.requests) {
        expect(request.headers['x-api-client-token']).toBe('own-headers-token');
        expect(request.headers.authorization).toBe('Bearer own-headers-public');
      }
      expect(server.requests).toHaveLength(2);
      expect(server.requests[1]?.headers['x-own']).toBe('1');
    } finally {
      await server.close();
    }
  });
});
