/**
 * Secrets must stay out of everything an error or a log line carries, not only
 * its message: echoed tokens in `err.headers`, a secret used as a JSON key (in `err.body`,
 * `fieldErrors`, debug logs), a token with CR/LF in `err.cause`, the signature of a pre-signed
 * URL in the debug `→ GET` line, and an error of the application's own that a log line carries.
 */

import http from 'node:http';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APIError,
  PartnerClient,
  PartnerError,
  UnprocessableEntityError,
} from '../../../src/index';
import { createWebhookHandler } from '../../../src/webhooks/index';
import { listen, send } from '../../helpers/http-servers';
import { json, type StubServer, startStub } from '../../helpers/stub-server';
import { userUpdatedBody } from '../../helpers/webhook-bodies';

const servers: StubServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function stub(handler: Parameters<typeof startStub>[0]): Promise<StubServer> {
  const server = await startStub(handler);
  servers.push(server);
  return server;
}

const clientToken = 'outside-client-token-0001';
const publicToken = 'outside-public-token-0001';

function capture() {
  const lines: string[] = [];
  const write = (message: string, ...details: unknown[]) =>
    lines.push([message, ...details.map((d) => inspect(d, { depth: 10 }))].join(' '));
  return { lines, logger: { error: write, warn: write, info: write, debug: write } };
}

describe('secrets outside the error message', () => {
  it('masks tokens the service echoes in response headers', async () => {
    const server = await stub((req, res) =>
      json(
        res,
        400,
        { message: 'no' },
        {
          'x-echo-token': `${req.headers['x-api-client-token']}`,
          'x-echo-bearer': `${req.headers.authorization}`,
        },
      ),
    );
    const client = new PartnerClient({ baseUrl: server.baseUrl, clientToken, logLevel: 'off' });
    const error = (await client
      .forUser(publicToken)
      .request({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.headers.get('x-echo-token')).toBe('[REDACTED]');
    const shown = inspect(error, { depth: 10 });
    expect(shown).not.toContain(clientToken);
    expect(shown).not.toContain(publicToken);
  });

  it('masks a secret used as a JSON key in body, fieldErrors and debug logs', async () => {
    const server = await stub((_req, res) =>
      json(res, 422, { message: 'invalid', errors: { [clientToken]: ['is wrong'] } }),
    );
    const { lines, logger } = capture();
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken,
      logger,
      logLevel: 'debug',
    });
    const error = (await client
      .request({ method: 'POST', path: '/x', body: { [publicToken]: 1 } })
      .catch((e: unknown) => e)) as UnprocessableEntityError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(JSON.stringify(error.body)).not.toContain(clientToken);
    expect(Object.keys(error.fieldErrors).join()).not.toContain(clientToken);
    expect(inspect(error, { depth: 10 })).not.toContain(clientToken);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).not.toContain(clientToken);
    }
  });

  it('never quotes a token with CR/LF, in the message or in the cause', async () => {
    const server = await stub((_req, res) => json(res, 200, {}));
    const client = new PartnerClient({ baseUrl: server.baseUrl, clientToken, logLevel: 'off' });
    const broken = 'seller-token-with\r\nInjected: header';
    const viaString = (() => {
      try {
        client.forUser(broken);
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    const viaFunction = await client
      .forUser(async () => broken)
      .request({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e);
    for (const error of [viaString, viaFunction]) {
      expect(error).toBeInstanceOf(PartnerError);
      expect(inspect(error, { depth: 10 })).not.toContain('seller-token-with');
    }
    expect(server.requests).toEqual([]);
  });

  it('shows a pre-signed download URL without its signature in the debug line', async () => {
    const files = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end('a;b\r\n');
    });
    const signed = `${files.origin}/exports/report.csv?X-Amz-Signature=sig-abcdef-123456`;
    const api = await stub((_req, res) => json(res, 200, {}));
    const { lines, logger } = capture();
    const client = new PartnerClient({
      baseUrl: api.baseUrl,
      clientToken,
      logger,
      logLevel: 'debug',
    });
    const response = await client.statements.download({ url: signed });
    await response.text();
    expect(lines.some((line) => line.includes('/exports/report.csv'))).toBe(true);
    expect(lines.join('\n')).not.toContain('sig-abcdef-123456');
  });

  it("masks a credential in defaultHeaders or a call's headers (a gateway key) in errors and the debug line", async () => {
    const gatewayKey = 'gateway-key-default-0001';
    const callKey = 'gateway-key-per-call-0001';
    const server = await stub((req, res) =>
      json(res, 400, {
        message: `bad keys ${req.headers['x-gateway-key']} ${req.headers['x-api-key']}`,
      }),
    );
    const { lines, logger } = capture();
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken,
      defaultHeaders: { 'x-gateway-key': gatewayKey, 'x-tenant': 'tenant-acme-01' },
      logger,
      logLevel: 'debug',
      maxRetries: 0,
    });
    const error = await client.products
      .list({}, { headers: { 'x-api-key': callKey } })
      .catch((e: unknown) => e);
    expect(server.requests[0]?.headers['x-gateway-key']).toBe(gatewayKey);
    expect((error as APIError).message).toContain('bad keys [REDACTED] [REDACTED]');
    const shown = `${inspect(error, { depth: 10 })}\n${lines.join('\n')}`;
    for (const secret of [gatewayKey, callKey]) expect(shown).not.toContain(secret);
    // A header whose name says nothing of a secret is shown as it is.
    expect(lines.join('\n')).toContain('tenant-acme-01');
  });

  it("masks a pre-signed URL's signature that the file's host echoes in its refusal", async () => {
    const signature = 'sig-echoed-by-the-host-7f3a';
    const files = await stub((req, res) => {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(
        `<Error><Code>SignatureDoesNotMatch</Code><SignatureProvided>${signature}</SignatureProvided><Url>${req.path}</Url></Error>`,
      );
    });
    const api = await stub((_req, res) => json(res, 200, {}));
    const { lines, logger } = capture();
    const client = new PartnerClient({
      baseUrl: api.baseUrl,
      clientToken,
      logger,
      logLevel: 'debug',
    });
    const signed = `${files.origin}/exports/report.csv?X-Amz-Signature=${signature}&X-Amz-Expires=300`;
    const error = await client.statements.download({ url: signed }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(files.requests[0]?.path).toContain(signature);
    expect(inspect(error, { depth: 10 })).toContain('SignatureDoesNotMatch');
    expect(inspect(error, { depth: 10 })).not.toContain(signature);
    expect(lines.join('\n')).not.toContain(signature);
  });

  it('masks a secret in an application error a log line carries: message, stack and cause', async () => {
    const secret = 'outside-client-token-0002';
    new PartnerClient({ baseUrl: 'http://127.0.0.1:9/api/v1', clientToken: secret });
    const lines = await failedDeliveryLog(secret);
    expect(lines).toContain('TypeError: could not sync the seller [REDACTED]');
    expect(lines).toContain('upstream refused [REDACTED]');
    expect(lines).not.toContain(secret);
  });

  it('keeps an error whose name and message are getters (a DOMException) readable, and masked', async () => {
    const secret = 'outside-client-token-0003';
    new PartnerClient({ baseUrl: 'http://127.0.0.1:9/api/v1', clientToken: secret });
    const read: string[] = [];
    // A logger reading the fields, as pino's error serializer does.
    const write = (_message: string, ...details: unknown[]) => {
      for (const detail of details) {
        const error = detail as Error;
        read.push(`${error.name}: ${error.message}`);
      }
    };
    const handler = createWebhookHandler({
      on: {
        user_updated: () => {
          throw new DOMException(`gave up on ${secret}`, 'TimeoutError');
        },
      },
      verify: () => true,
      logger: { error: write, warn: write, info: write, debug: write },
    });
    const server = await listen(http.createServer(handler.node));
    try {
      await send(`${server.url}/webhooks`, { body: JSON.stringify(userUpdatedBody) });
    } finally {
      await server.close();
    }
    expect(read).toEqual(['TimeoutError: gave up on [REDACTED]']);
  });

  it("masks a seller's token given to forUser before any call is made with it", async () => {
    const token = 'outside-public-token-0002';
    new PartnerClient({ baseUrl: 'http://127.0.0.1:9/api/v1', clientToken }).forUser(token);
    const lines = await failedDeliveryLog(token);
    expect(lines).toContain('could not sync the seller [REDACTED]');
    expect(lines).not.toContain(token);
  });
});

/** The log of a webhook receiver whose handler fails with an error quoting `secret` (and a cause). */
async function failedDeliveryLog(secret: string): Promise<string> {
  const { lines, logger } = capture();
  const handler = createWebhookHandler({
    on: {
      user_updated: () => {
        const cause = new Error(`upstream refused ${secret}`);
        throw new TypeError(`could not sync the seller ${secret}`, { cause });
      },
    },
    verify: () => true,
    logger,
  });
  const server = await listen(http.createServer(handler.node));
  try {
    const answer = await send(`${server.url}/webhooks`, { body: JSON.stringify(userUpdatedBody) });
    expect(answer.status).toBe(500);
  } finally {
    await server.close();
  }
  return lines.join('\n');
}
