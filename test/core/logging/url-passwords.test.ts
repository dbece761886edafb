/**
 * A URL's password (a proxy's, a Redis URL's) that reaches text the SDK emits: a service or a
 * gateway quoting its upstream in an error, a token store failing with its connection URL. The
 * SDK never held it, yet it must not print it.
 */

import { APIError, type ClientTokenStore, PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { describe, expect, it } from 'vitest';

const PROXY = 'http://bob:hunter2-proxy-pw@proxy.internal:3128';
const REDIS = 'rediss://default:redis-pw-5521@cache.internal:6380/0';

/** A logger keeping every line with its details as JSON. */
function keptLines() {
  const lines: string[] = [];
  const at = (message: string, ...details: unknown[]) =>
    lines.push([message, ...details.map((detail) => JSON.stringify(detail))].join(' '));
  return { lines, logger: { error: at, warn: at, info: at, debug: at } };
}

describe("a URL's password in text the SDK emits", () => {
  it('is masked in an error quoting it, its body and every log line, the user and host kept', async () => {
    const mock = createMockPartnerApi();
    const { lines, logger } = keptLines();
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      clientToken: mock.credentials.clientToken,
      logger,
      logLevel: 'debug',
      maxRetries: 0,
    });
    mock.failNext({
      status: 502,
      path: '/products',
      body: { message: `upstream ${PROXY} refused; cache ${REDIS} down` },
    });
    const error = (await client.products.list().catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(APIError);
    const texts = [error.message, JSON.stringify(error), JSON.stringify(error.body), ...lines];
    for (const text of texts) {
      expect(text).not.toContain('hunter2-proxy-pw');
      expect(text).not.toContain('redis-pw-5521');
    }
    expect(error.message).toContain('http://bob:[REDACTED]@proxy.internal:3128');
    expect(error.message).toContain('rediss://default:[REDACTED]@cache.internal:6380/0');
  });

  it("is masked in the warning of a token store that failed with its connection's URL", async () => {
    const mock = createMockPartnerApi();
    const { lines, logger } = keptLines();
    const tokenStore: ClientTokenStore = {
      obtain: async () => {
        throw new Error(`connection to ${REDIS} lost`);
      },
    };
    const client = new PartnerClient({
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
      ...mock.credentials,
      tokenStore,
      logger,
      logLevel: 'warn',
    });
    await client.products.list({ per_page: 1 });
    expect(lines).toEqual([expect.stringContaining('default:[REDACTED]@cache.internal')]);
  });
});
