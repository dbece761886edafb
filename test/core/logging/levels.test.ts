/**
 * Where the client's log goes and how much of it, as an operator sets it: the default (`console`,
 * `'warn'`), the `PARTNER_API_LOG` variable, and the `logLevel` option over it.
 */

import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
});

const mock = createMockPartnerApi();

/** A client of the kit with `options`, and the lines written to each of console's methods. */
function consoleClient(options: { logLevel?: 'off' | 'error' | 'warn' | 'info' | 'debug' } = {}) {
  const written: Record<'error' | 'warn' | 'info' | 'debug' | 'log', string[]> = {
    error: [],
    warn: [],
    info: [],
    debug: [],
    log: [],
  };
  for (const method of Object.keys(written) as (keyof typeof written)[]) {
    vi.spyOn(console, method).mockImplementation((message: unknown) => {
      written[method].push(String(message));
    });
  }
  const client = new PartnerClient({
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    clientToken: mock.credentials.clientToken,
    ...options,
  });
  return { client, written };
}

describe('the client log by default and by PARTNER_API_LOG', () => {
  it("goes to console at 'warn': a retry on console.warn (stderr), nothing for a call that went well", async () => {
    vi.stubEnv('PARTNER_API_LOG', '');
    const { client, written } = consoleClient();
    await client.products.list({ per_page: 1 });
    mock.failNext({ status: 503, path: '/products' });
    await client.products.list({ per_page: 1 });
    expect(written.warn).toEqual([
      expect.stringMatching(/^\[partner-sdk\] retrying GET \/products after HTTP 503/),
    ]);
    expect([...written.error, ...written.info, ...written.debug, ...written.log]).toEqual([]);
  });

  it("PARTNER_API_LOG=info adds each call's line on console.info; logLevel beats it", async () => {
    vi.stubEnv('PARTNER_API_LOG', 'INFO');
    const chatty = consoleClient();
    await chatty.client.products.list({ per_page: 1 });
    expect(chatty.written.info).toEqual([
      expect.stringMatching(/^\[partner-sdk\] GET \/products → 200 \(\d+ ms\)$/),
    ]);
    vi.restoreAllMocks();
    const quiet = consoleClient({ logLevel: 'off' });
    mock.failNext({ status: 503, path: '/products' });
    await quiet.client.products.list({ per_page: 1 });
    expect(Object.values(quiet.written).flat()).toEqual([]);
  });

  it("an unknown PARTNER_API_LOG is said once, at 'warn', the level it falls back to", () => {
    vi.stubEnv('PARTNER_API_LOG', 'verbose');
    const first = consoleClient();
    expect(first.written.warn).toEqual([
      '[partner-sdk] PARTNER_API_LOG must be off, error, warn, info or debug (got "verbose"): logging at warn',
    ]);
    // Once per process: a client made per request does not repeat it.
    const second = consoleClient();
    expect(second.written.warn).toEqual([]);
  });
});

describe('the logins in the log', () => {
  it("shows the login at 'info' as any call, and a client token renewed after a 401 with the call replayed", async () => {
    const kit = createMockPartnerApi();
    const lines: string[] = [];
    const at = (level: string) => (message: string) => lines.push(`${level} ${message}`);
    const client = new PartnerClient({
      baseUrl: kit.baseUrl,
      fetch: kit.fetch,
      ...kit.credentials,
      logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') },
      logLevel: 'info',
    });
    await client.products.list({ per_page: 1 });
    kit.expireTokens();
    await client.products.list({ per_page: 1 });
    expect(lines.map((line) => line.replace(/\(\d+ ms\)/, '(… ms)'))).toEqual([
      'info [partner-sdk] POST /auth → 200 (… ms)',
      'info [partner-sdk] GET /products → 200 (… ms)',
      'info [partner-sdk] POST /auth → 200 (… ms)',
      'info [partner-sdk] client token refused; replaying GET /products with a new one',
      'info [partner-sdk] GET /products → 200 (… ms)',
    ]);
    expect(lines.join('\n')).not.toContain(kit.credentials.clientSecret);
  });

  it('ends a call whose given token is refused, with nothing to renew it, in one line', async () => {
    const kit = createMockPartnerApi();
    const lines: string[] = [];
    const at = (level: string) => (message: string) => lines.push(`${level} ${message}`);
    const client = new PartnerClient({
      baseUrl: kit.baseUrl,
      fetch: kit.fetch,
      clientToken: 'never-issued-token-4471',
      logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') },
      logLevel: 'info',
    });
    await expect(client.products.list({ per_page: 1 })).rejects.toMatchObject({ status: 401 });
    expect(lines).toEqual([
      expect.stringMatching(/^info \[partner-sdk\] GET \/products → 401 \(\d+ ms\)$/),
    ]);
  });
});
