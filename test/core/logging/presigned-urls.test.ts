/**
 * A pre-signed file URL is a credential until it expires: whoever holds it downloads the file.
 * The service hands one out in an export's answer (`url`, spec §4.8) before the SDK has fetched it,
 * so the SDK cannot yet know its signature as a secret: in the debug log, in an error's body and
 * message, the values of its query parameters named as credentials are masked wherever such a
 * URL appears in text; the other parameters, and what the caller's own code receives, are kept.
 */

import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { APIError, PartnerClient } from '../../../src/index';
import { json, type StubServer, startStub } from '../../helpers/stub-server';

const servers: StubServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const SIGNATURE = 'f3c2a9b8e7d6c5b4a3928170665544332211aabb';
const SECURITY_TOKEN = 'FwoGZXIvYXdzEXAMPLEsessiontoken0001';
const FILE_URL =
  'https://files.example.com/exports/e1.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
  `&X-Amz-Expires=300&X-Amz-Security-Token=${SECURITY_TOKEN}&X-Amz-Signature=${SIGNATURE}`;

function capture() {
  const lines: string[] = [];
  const write = (message: string, ...details: unknown[]) =>
    lines.push([message, ...details.map((d) => inspect(d, { depth: 10 }))].join(' '));
  return { lines, logger: { error: write, warn: write, info: write, debug: write } };
}

async function serving(status: number, body: unknown) {
  const server = await startStub((_req, res) => json(res, status, body));
  servers.push(server);
  return server;
}

describe('a pre-signed URL in an answer', () => {
  it('is masked in the debug log, and reaches the caller whole', async () => {
    const server = await serving(200, { status: 'ready', url: FILE_URL });
    const { lines, logger } = capture();
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'presigned-client-token',
      logger,
      logLevel: 'debug',
    });
    const answer = (await client.request({ method: 'GET', path: '/statements/exports/e1' })) as {
      url: string;
    };
    expect(answer.url).toBe(FILE_URL);
    const logged = lines.join('\n');
    expect(logged).toContain('X-Amz-Expires=300');
    expect(logged).toContain('X-Amz-Signature=[REDACTED]');
    expect(logged).not.toContain(SIGNATURE);
    expect(logged).not.toContain(SECURITY_TOKEN);
  });

  it('is masked in an error’s body and message, in JSON or in plain text', async () => {
    for (const body of [
      { message: `The file at ${FILE_URL} is gone.`, url: FILE_URL },
      `moved to ${FILE_URL}`,
    ]) {
      const server = await serving(410, body);
      const client = new PartnerClient({
        baseUrl: server.baseUrl,
        clientToken: 'presigned-client-token',
        logLevel: 'off',
        maxRetries: 0,
      });
      const error = await client
        .request({ method: 'GET', path: '/statements/exports/e1' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIError);
      const shown = [
        (error as APIError).message,
        JSON.stringify((error as APIError).body),
        inspect(error, { depth: 10 }),
      ].join('\n');
      expect(shown).toContain('X-Amz-Algorithm=AWS4-HMAC-SHA256');
      expect(shown).not.toContain(SIGNATURE);
      expect(shown).not.toContain(SECURITY_TOKEN);
    }
  });
});
