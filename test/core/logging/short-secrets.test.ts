/**
 * The spec gives credentials no minimum length (§5: a client secret handed out of band, a client
 * token from the login, a user's public token), so a secret of two to five characters is masked
 * like any other wherever the service echoes it: in the error's message, its body, its JSON and
 * the log. Masked where it stands as a word of its own: inside a longer word it is another word.
 */

import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../../src/core/logging/known-secrets';
import { redactText } from '../../../src/core/logging/redact';
import { PartnerClient } from '../../../src/index';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

/** Every line a client logs, joined with what it logged beside the line. */
function recordingLogger() {
  const lines: string[] = [];
  const record = (...parts: unknown[]) => {
    lines.push(parts.map((part) => inspect(part, { depth: 20 })).join(' '));
  };
  return { lines, logger: { error: record, warn: record, info: record, debug: record } };
}

/** The texts an error shows of itself. */
function renderings(error: Error & { body?: unknown }): string[] {
  return [
    error.message,
    String(error),
    JSON.stringify(error),
    JSON.stringify(error.body),
    inspect(error, { depth: 20 }),
  ];
}

describe('secrets of two to five characters', () => {
  const clientSecret = 'Qv';
  const clientToken = 'Zq9';
  const publicToken = 'pT5x2';

  it.each([401, 422, 500])(
    'never appear in a %i error or the log, echoed by the service',
    async (status) => {
      const server = await stub((req, res) =>
        req.path === '/auth'
          ? json(res, 200, { client_token: clientToken })
          : json(res, status, {
              message: `Rejected ${clientToken} for ${publicToken} (secret ${clientSecret})`,
              echoed: [clientToken, publicToken, clientSecret],
              errors: { detail: [`token "${clientToken}" is not ${publicToken}`] },
            }),
      );
      const { lines, logger } = recordingLogger();
      const client = new PartnerClient({
        baseUrl: server.baseUrl,
        clientId: 'id-short',
        clientSecret,
        maxRetries: 0,
        logger,
        logLevel: 'debug',
      });
      const error = (await client
        .forUser(publicToken)
        .request({ method: 'GET', path: '/x' })
        .catch((caught: unknown) => caught)) as Error;
      expect(error).toBeInstanceOf(Error);
      expect(lines.length).toBeGreaterThan(0);
      for (const text of [...renderings(error), ...lines]) {
        for (const secret of [clientSecret, clientToken, publicToken]) {
          expect(text).not.toContain(secret);
        }
      }
    },
  );

  it('leave the longer words that hold them as they are', async () => {
    const server = await stub((_req, res) =>
      json(res, 422, { message: 'Invalid value: val is refused', errors: { val: ['invalid'] } }),
    );
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'val',
      maxRetries: 0,
      logLevel: 'off',
    });
    const error = (await client
      .request({ method: 'GET', path: '/x' })
      .catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain('Invalid value: [REDACTED] is refused');
  });
});

describe('a short secret inside a name', () => {
  it('is left in `client_Zq9` (an underscore joins a name) and masked where it stands alone', () => {
    registerSecret('Zq9');
    expect(redactText('{"client_Zq9": "Zq9", "Zq9_id": 1}')).toBe(
      '{"client_Zq9": "[REDACTED]", "Zq9_id": 1}',
    );
  });
});
