/**
 * Messages a partner reads: a Laravel 8 422 names the first field error and how many follow; a
 * connection that failed says why, not only "fetch failed"; a `baseUrl` without the `/api/v1`
 * prefix is warned about once, at construction.
 */

import { describe, expect, it, vi } from 'vitest';
import { makeAPIError } from '../../../src/core/errors';
import { PartnerClient, PartnerError, UnprocessableEntityError } from '../../../src/index';

const REQUEST = { method: 'POST', path: '/users/update' };
const laravel8 = (errors: Record<string, string[]>) => ({
  message: 'The given data was invalid.',
  errors,
});

describe('a Laravel 8 422', () => {
  it('shows the first field error and how many more in err.message', () => {
    const error = makeAPIError(
      REQUEST,
      422,
      laravel8({
        name: ['The name must be at least 3 characters.'],
        'phones.0.number': [
          'The phones.0.number format is invalid.',
          'It must have 8 or 9 digits.',
        ],
      }),
      new Headers(),
    );
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.message).toBe(
      'POST /users/update → 422 Unprocessable Entity: name: The name must be at least 3 characters. (and 2 more errors)',
    );
    expect((error as UnprocessableEntityError).fieldErrors['phones.0.number']).toHaveLength(2);
  });

  it('says nothing of more errors when there is one, and "1 more error" in the singular', () => {
    const one = makeAPIError(REQUEST, 422, laravel8({ reason: ['Too long.'] }), new Headers());
    expect(one.message).toMatch(/: reason: Too long\.$/);
    const two = makeAPIError(REQUEST, 422, laravel8({ a: ['A.'], b: ['B.'] }), new Headers());
    expect(two.message).toMatch(/: a: A\. \(and 1 more error\)$/);
  });

  it('keeps a later Laravel message, which already names the first error, as it is', () => {
    const body = {
      message: 'The name must be at least 3 characters. (and 1 more error)',
      errors: { name: ['The name must be at least 3 characters.'], city: ['Required.'] },
    };
    expect(makeAPIError(REQUEST, 422, body, new Headers()).message).toMatch(
      /: The name must be at least 3 characters\. \(and 1 more error\)$/,
    );
  });

  it('keeps the generic message when the body has no field errors to show', () => {
    for (const errors of [{}, { name: [] }, null, 'oops']) {
      const body = { message: 'The given data was invalid.', errors };
      expect(makeAPIError(REQUEST, 422, body, new Headers()).message).toMatch(
        /: The given data was invalid\.$/,
      );
    }
  });

  it('reaches err.message through a call', async () => {
    const client = new PartnerClient({
      baseUrl: 'https://partner.test/api/v1',
      clientToken: 'client-token',
      logLevel: 'off',
      fetch: async () =>
        Response.json(laravel8({ price: ['The price must not be greater than 99999999.'] }), {
          status: 422,
        }),
    });
    await expect(client.offers.update('prd_1', 'off_1', { price: 1 })).rejects.toThrow(
      'PUT /products/prd_1/offers/off_1 → 422 Unprocessable Entity: price: The price must not be greater than 99999999.',
    );
  });
});

describe('a connection that failed', () => {
  const failing = (error: unknown) =>
    new PartnerClient({
      baseUrl: 'https://partner.test/api/v1',
      clientToken: 'client-token',
      logLevel: 'off',
      maxRetries: 0,
      fetch: async () => {
        throw error;
      },
    });

  it.each([
    ['a port fetch refuses', new Error('bad port'), 'bad port'],
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
      'connect ECONNREFUSED 127.0.0.1:9',
    ],
    [
      'a certificate',
      Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }),
      'CERT_HAS_EXPIRED (certificate has expired)',
    ],
    [
      'a reason with no words (an AggregateError of every address)',
      Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' }),
      'ECONNREFUSED (fetch failed)',
    ],
  ])('names the reason fetch gave in its cause: %s', async (_, cause, reason) => {
    const error = new TypeError('fetch failed', { cause });
    await expect(failing(error).products.retrieve('prd_1')).rejects.toThrow(
      `GET /products/prd_1 → connection failed: ${reason}`,
    );
  });
});

describe('a baseUrl without /api/v1', () => {
  const logger = () => ({ debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() });

  it('logs one warning at construction, naming the prefix', () => {
    const sink = logger();
    const client = new PartnerClient({
      baseUrl: 'https://partner.example.com',
      clientToken: 'client-token',
      logger: sink,
    });
    expect(sink.warn).toHaveBeenCalledTimes(1);
    expect(sink.warn.mock.calls[0]?.[0]).toMatch(/does not end in \/api\/v1/);
    client.forUser('public-token');
    client.withOptions({ timeout: 5_000 });
    expect(sink.warn).toHaveBeenCalledTimes(1);
  });

  it('logs nothing for a baseUrl ending in /api/v1 (with or without a trailing slash)', () => {
    const sink = logger();
    for (const baseUrl of ['https://partner.example.com/api/v1', 'https://x.test/gw/api/v1/']) {
      new PartnerClient({ baseUrl, clientToken: 'client-token', logger: sink });
    }
    expect(sink.warn).not.toHaveBeenCalled();
  });

  it('warns for a withOptions copy only when it brings its own such baseUrl', () => {
    const sink = logger();
    const client = new PartnerClient({
      baseUrl: 'https://partner.example.com/api/v1',
      clientToken: 'client-token',
      logger: sink,
    });
    client.withOptions({ baseUrl: 'https://staging.example.com/api/v1' });
    expect(sink.warn).not.toHaveBeenCalled();
    client.withOptions({ baseUrl: 'https://staging.example.com/v1' });
    expect(sink.warn).toHaveBeenCalledTimes(1);
  });

  it('stays silent with logLevel off', () => {
    const sink = logger();
    new PartnerClient({
      baseUrl: 'https://partner.example.com',
      clientToken: 'client-token',
      logger: sink,
      logLevel: 'off',
    });
    expect(sink.warn).not.toHaveBeenCalled();
  });
});

describe('a baseUrl in plain http', () => {
  const logger = () => ({ debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() });

  it.each([
    'http://partner.example.com/api/v1',
    'http://10.0.0.7:8080/api/v1',
    'http://127.example.com/api/v1',
  ])('warns once that credentials cross the network unencrypted: %s', (baseUrl) => {
    const sink = logger();
    const client = new PartnerClient({ baseUrl, clientToken: 'client-token-1', logger: sink });
    client.forUser('public-token');
    expect(sink.warn).toHaveBeenCalledTimes(1);
    expect(sink.warn.mock.calls[0]?.[0]).toBe(
      `[partner-sdk] baseUrl ${baseUrl} is not https: the client's credentials and tokens will cross the network unencrypted.`,
    );
  });

  it.each([
    'https://partner.example.com/api/v1',
    'http://127.0.0.1:3000/api/v1',
    'http://127.8.9.10/api/v1',
    'http://localhost:3000/api/v1',
    'http://api.localhost/api/v1',
    'http://[::1]:3000/api/v1',
  ])('stays silent for https and for this machine: %s', (baseUrl) => {
    const sink = logger();
    new PartnerClient({ baseUrl, clientToken: 'client-token-1', logger: sink });
    expect(sink.warn).not.toHaveBeenCalled();
  });

  it('warns for a withOptions copy that brings its own plain-http baseUrl', () => {
    const sink = logger();
    const client = new PartnerClient({
      baseUrl: 'https://partner.example.com/api/v1',
      clientToken: 'client-token-1',
      logger: sink,
    });
    client.withOptions({ baseUrl: 'http://staging.example.com/api/v1' });
    expect(sink.warn).toHaveBeenCalledTimes(1);
    expect(sink.warn.mock.calls[0]?.[0]).toMatch(/is not https/);
  });
});

describe('a baseUrl carrying a user name or password', () => {
  it.each([
    'https://operator:s3cret-pass@partner.example.com/api/v1',
    'https://operator@partner.example.com/api/v1',
    'https://:s3cret-pass@partner.example.com/api/v1',
  ])('is refused when the client is made, without showing it: %s', (baseUrl) => {
    const sink = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const made = () => new PartnerClient({ baseUrl, clientToken: 'client-token-1', logger: sink });
    expect(made).toThrow(PartnerError);
    expect(made).toThrow(
      '`baseUrl` must not carry a user name or password: the client authenticates with `clientToken`, or `clientId` and `clientSecret`.',
    );
    expect(sink.warn).not.toHaveBeenCalled();
  });
});
