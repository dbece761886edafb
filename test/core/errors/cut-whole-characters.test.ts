/**
 * An error's message quotes what the service said up to a bound and cuts the rest; the cut falls
 * between characters, never inside an emoji's surrogate pair, whose half would print as garbage and
 * break a log line's UTF-8. Through the public client against a loopback stub.
 */

import { describe, expect, it } from 'vitest';
import { APIError, PartnerClient } from '../../../src/index';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

const LONE_SURROGATE = /\p{Cs}/u;

async function errorOf(status: number, body: unknown, hash = 'prd_1'): Promise<APIError> {
  const server = await stub((_req, res) => json(res, status, body));
  const client = new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: 'cut-token',
    logLevel: 'off',
    maxRetries: 0,
  });
  const error = await client.products.retrieve(hash).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(APIError);
  return error as APIError;
}

describe('a message cut at its bound', () => {
  it.each([299, 300])(
    'cuts a service message with an emoji across the bound (at %d) between characters',
    async (before) => {
      const said = `${'a'.repeat(before)}${'😀'.repeat(20)}`;
      const error = await errorOf(400, { message: said });
      expect(error.message).not.toMatch(LONE_SURROGATE);
      expect(error.message).toMatch(/a…$/);
      expect((error.body as { message: string }).message).toBe(said);
    },
  );

  it('cuts a long path of emoji given to request() between characters', async () => {
    const server = await stub((_req, res) => json(res, 404, { message: 'Not found.' }));
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'cut-token',
      logLevel: 'off',
      maxRetries: 0,
    });
    const path = `/p/${'😀'.repeat(150)}`;
    const error = await client.request({ method: 'GET', path }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).message).not.toMatch(LONE_SURROGATE);
    expect((error as APIError).message).toContain('(a path of 153 characters)');
  });
});
