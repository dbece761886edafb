/**
 * An error written as JSON, as a partner's structured logger or an error report does
 * (`JSON.stringify(err)`, `err.toJSON()`): what happened is all there, its message and headers
 * included, and no secret is.
 */

import { inspect } from 'node:util';
import {
  type APIConnectionError,
  type APIError,
  type APIUserAbortError,
  type OutcomeUnknownError,
  PartnerClient,
  PartnerError,
  type UnprocessableEntityError,
} from 'partner-sdk';
import { describe, expect, it } from 'vitest';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

const clientToken = 'serialized-client-token-0001';
const publicToken = 'serialized-public-token-0001';

async function failedCall(status: number, body: unknown, headers: Record<string, string> = {}) {
  const server = await stub((_request, res) => json(res, status, body, headers));
  const client = new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken,
    logLevel: 'off',
    maxRetries: 0,
  });
  return client
    .forUser(publicToken)
    .request({ method: 'GET', path: '/users/fee-tiers' })
    .catch((e: unknown) => e);
}

describe('an error as JSON', () => {
  it('carries its name, message, status, body, method, path and headers', async () => {
    const error = (await failedCall(
      422,
      { message: 'The given data was invalid.', errors: { name: ['Too short.'] } },
      { 'x-request-id': 'req-42' },
    )) as UnprocessableEntityError;
    const written = JSON.parse(JSON.stringify(error));
    expect(written).toMatchObject({
      name: 'UnprocessableEntityError',
      message: error.message,
      status: 422,
      method: 'GET',
      path: '/users/fee-tiers',
      body: { message: 'The given data was invalid.', errors: { name: ['Too short.'] } },
      fieldErrors: { name: ['Too short.'] },
    });
    expect(written.message).toBe(
      'GET /users/fee-tiers → 422 Unprocessable Entity: name: Too short.',
    );
    expect(written.headers['x-request-id']).toBe('req-42');
    expect(error.toJSON()).toEqual(written);
  });

  it('writes no token the service echoed, in any field', async () => {
    const error = (await failedCall(
      401,
      {
        message: `token ${clientToken} refused`,
        client_token: clientToken,
        public_token: publicToken,
      },
      { 'x-echo': clientToken, 'x-echo-bearer': `Bearer ${publicToken}` },
    )) as APIError;
    const renderings = [JSON.stringify(error), JSON.stringify(error.toJSON()), inspect(error)];
    for (const text of renderings) {
      expect(text).not.toContain(clientToken);
      expect(text).not.toContain(publicToken);
    }
    expect(JSON.parse(renderings[0] ?? '{}').headers['x-echo']).toBe('[REDACTED]');
  });

  it('writes the error of the lost attempt inside an OutcomeUnknownError', async () => {
    const server = await stub((_request, res) => json(res, 503, { message: 'Down for a moment.' }));
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken,
      logLevel: 'off',
      maxRetries: 1,
    });
    const error = (await client
      .forUser(publicToken)
      .refunds.request('tx_serialized')
      .catch((e: unknown) => e)) as OutcomeUnknownError;
    const written = JSON.parse(JSON.stringify(error));
    expect(written.name).toBe('OutcomeUnknownError');
    expect(written.message).toBe(error.message);
    expect(written.attemptError).toMatchObject({
      name: 'InternalServerError',
      status: 503,
      message: 'POST /financial/refund/tx_serialized → 503 Service Unavailable: Down for a moment.',
    });
  });

  it("writes the cause the errors guide lists: the runtime's error of a failed connection, down its chain", async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    const client = new PartnerClient({
      baseUrl: 'https://partner.test/api/v1',
      clientToken,
      logLevel: 'off',
      maxRetries: 0,
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: refused });
      },
    });
    const error = (await client.products
      .retrieve('prd_1')
      .catch((e: unknown) => e)) as APIConnectionError;
    expect(JSON.parse(JSON.stringify(error)).cause).toEqual({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { name: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:9', code: 'ECONNREFUSED' },
    });
  });

  it("writes an abort's cause, the signal's reason, with no secret it quotes", async () => {
    const server = await stub((_request, res) => json(res, 200, { data: [], meta: {} }));
    const client = new PartnerClient({ baseUrl: server.baseUrl, clientToken, logLevel: 'off' });
    const controller = new AbortController();
    controller.abort(new Error(`shutting down, token ${clientToken}`));
    const error = (await client.products
      .list({}, { signal: controller.signal })
      .catch((e: unknown) => e)) as APIUserAbortError;
    const written = JSON.stringify(error);
    expect(JSON.parse(written).cause).toEqual({
      name: 'Error',
      message: 'shutting down, token [REDACTED]',
    });
    expect(written).not.toContain(clientToken);
  });

  it("writes an OutcomeUnknownError's cause: the check that failed", async () => {
    const server = await stub((_request, res) => json(res, 503, { message: 'Down for a moment.' }));
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken,
      logLevel: 'off',
      maxRetries: 1,
    });
    const error = (await client
      .forUser(publicToken)
      .refunds.request('tx_serialized')
      .catch((e: unknown) => e)) as OutcomeUnknownError;
    expect(JSON.parse(JSON.stringify(error)).cause).toMatchObject({
      name: 'InternalServerError',
      status: 503,
      message: 'GET /financial/refund/tx_serialized → 503 Service Unavailable: Down for a moment.',
    });
  });
});

describe('an error whose causes loop', () => {
  it('is written once, the loop closed by the name and message of the error met again', () => {
    const outer = new PartnerError('outer');
    const inner = new PartnerError('inner', { cause: outer });
    Object.defineProperty(outer, 'cause', { value: inner });
    expect(JSON.parse(JSON.stringify(outer))).toEqual({
      name: 'PartnerError',
      message: 'outer',
      cause: {
        name: 'PartnerError',
        message: 'inner',
        cause: { name: 'PartnerError', message: 'outer' },
      },
    });
  });
});

describe('an error sent to a worker thread or another process', () => {
  it('keeps only the message through structuredClone; err.toJSON() keeps every field', async () => {
    const error = (await failedCall(
      404,
      { message: 'Product not found.' },
      {
        'x-request-id': 'req-7',
      },
    )) as APIError;
    // The structured clone algorithm copies an Error's message, stack and cause, not its class or
    // its own fields: the errors guide says so and points at toJSON().
    const cloned = structuredClone(error);
    expect(cloned).toBeInstanceOf(Error);
    expect(cloned.message).toBe(error.message);
    expect((cloned as Partial<APIError>).status).toBeUndefined();
    const sent = structuredClone(error.toJSON());
    expect(sent).toMatchObject({
      name: 'NotFoundError',
      status: 404,
      method: 'GET',
      path: '/users/fee-tiers',
      body: { message: 'Product not found.' },
    });
    expect((sent.headers as Record<string, string>)['x-request-id']).toBe('req-7');
  });
});
