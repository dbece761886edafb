import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../../src/index';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

function captureLogger() {
  const lines: string[] = [];
  const write = (message: string, ...details: unknown[]) =>
    lines.push([message, ...details.map((d) => JSON.stringify(d))].join(' '));
  return { lines, logger: { error: write, warn: write, info: write, debug: write } };
}

describe('logging', () => {
  it("reads logLevel whatever its case: 'OFF' writes nothing, 'DEBUG' everything", () => {
    const quiet = captureLogger();
    // An unversioned baseUrl makes the client warn once, at construction.
    const options = { baseUrl: 'https://partner.example.com/v2', clientToken: 'level-token-1' };
    new PartnerClient({ ...options, logger: quiet.logger, logLevel: 'OFF' as 'off' });
    expect(quiet.lines).toEqual([]);
    const chatty = captureLogger();
    new PartnerClient({ ...options, logger: chatty.logger, logLevel: 'DEBUG' as 'debug' });
    expect(chatty.lines).toHaveLength(1);
  });

  it('refuses a level name that is only a property every object inherits', () => {
    for (const logLevel of ['constructor', 'hasOwnProperty']) {
      expect(
        () =>
          new PartnerClient({
            baseUrl: 'https://partner.example.com/api/v1',
            clientToken: 'level-token-1',
            logLevel: logLevel as 'off',
          }),
      ).toThrow(/`logLevel` must be/);
    }
  });

  it('never writes the client secret, client token or public token, even when the service echoes them', async () => {
    const secret = 'log-client-secret-777';
    const publicToken = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3IifQ.c2lnbmF0dXJlLXZhbHVl';
    const server = await stub((req, res) => {
      if (req.path === '/auth') return json(res, 200, { client_token: 'log-client-token-888' });
      if (req.path === '/fail')
        return json(res, 500, {
          message: `bad token log-client-token-888`,
          public_token: publicToken,
        });
      return json(res, 200, {
        client_token: 'log-client-token-888',
        public_token: publicToken,
        cpf: '123.456.789-09',
      });
    });
    const { lines, logger } = captureLogger();
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientId: 'id-1',
      clientSecret: secret,
      logger,
      logLevel: 'debug',
      maxRetries: 1,
    });
    const seller = client.forUser(publicToken);
    await seller.request({ method: 'GET', path: '/echo' });
    await seller.request({ method: 'GET', path: '/fail' }).catch(() => undefined);
    const output = lines.join('\n');
    expect(lines.length).toBeGreaterThan(4);
    expect(output).toContain('/echo');
    expect(output).not.toContain(secret);
    expect(output).not.toContain('log-client-token-888');
    expect(output).not.toContain(publicToken);
    // Personal data is masked in debug logs of bodies.
    expect(output).not.toContain('123.456.789-09');
    expect(output).toContain('[REDACTED]');
  });

  it('writes nothing below the chosen level', async () => {
    const server = await stub((_req, res) => json(res, 200, {}));
    const { lines, logger } = captureLogger();
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'tok-123456',
      logger,
      logLevel: 'warn',
    });
    await client.request({ method: 'GET', path: '/quiet' });
    expect(lines).toEqual([]);
    const chatty = client.withOptions({ logLevel: 'info' });
    await chatty.request({ method: 'GET', path: '/loud' });
    expect(lines.join('\n')).toMatch(/GET \/loud → 200/);
  });

  it('logs retries at warn level', async () => {
    let n = 0;
    const server = await stub((_req, res) => json(res, n++ === 0 ? 503 : 200, {}));
    const { lines, logger } = captureLogger();
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'tok-123456',
      logger,
      logLevel: 'warn',
    });
    await client.request({ method: 'GET', path: '/retry' });
    expect(lines.join('\n')).toMatch(/retrying GET .*\/retry after HTTP 503/);
  });

  it('warns once per retry made, naming the URL without its query', async () => {
    let n = 0;
    const server = await stub((_req, res) => json(res, n++ < 2 ? 503 : 200, {}));
    const { lines, logger } = captureLogger();
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'tok-123456',
      logger,
    });
    await client.request({ method: 'GET', path: '/retry', query: { signature: 'sig-s3cr3t' } });
    const warnings = lines.filter((line) => line.includes('retrying'));
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(
      /retrying GET \S*\/retry after HTTP 503 \(retry 2, waiting \d+ ms\)$/,
    );
    expect(lines.join('\n')).not.toContain('sig-s3cr3t');
  });

  it('does not warn of a retry it does not make', async () => {
    const server = await stub((req, res) => json(res, req.path === '/missing' ? 404 : 500, {}));
    const { lines, logger } = captureLogger();
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'tok-123456',
      logger,
    });
    await client.request({ method: 'GET', path: '/missing' }).catch(() => undefined);
    // A POST through request() is not replayed by default: a 500 is not retried.
    await client.request({ method: 'POST', path: '/broken' }).catch(() => undefined);
    expect(lines.filter((line) => line.includes('retrying'))).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });
});
