import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../src/index';
import { makeClient, rejectionOf, replyToAnything, requests, useMockApi } from './helpers/msw-api';

useMockApi();

// `client.request()` sends its path as given, under baseUrl: never above it.

describe('client.request paths', () => {
  it.each([
    '/../x',
    '/users/../../auth',
    '/%2e%2e/x',
    '/%2E%2e/x',
    '/.%2e/x',
    '/./users/fee-tiers',
    '/users/%2E/fee-tiers',
    '/users/..?x=1',
  ])('refuses %s, a dot segment, sending nothing', async (path) => {
    replyToAnything({});
    const error = await rejectionOf(makeClient().request({ method: 'GET', path }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['path']);
    expect(requests()).toHaveLength(0);
  });

  it.each(['users/fee-tiers', 'https://elsewhere.example/x', ''])(
    'refuses %j, not a path starting with "/", sending nothing',
    async (path) => {
      replyToAnything({});
      const error = await rejectionOf(makeClient().request({ method: 'GET', path }));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(requests()).toHaveLength(0);
    },
  );

  it('sends a path with dots inside its segments, and its query, as given', async () => {
    replyToAnything({ ok: true });
    await makeClient().request({ method: 'GET', path: '/users/fee-tiers/v1.2..3?at=..' });
    expect(requests()[0]?.path).toBe('/users/fee-tiers/v1.2..3');
    expect(requests()[0]?.query).toEqual({ at: '..' });
  });
});

describe('options given as undefined', () => {
  it('are read as absent: the call runs with the client settings, once', async () => {
    replyToAnything({ ok: true });
    const result = await makeClient().request(
      { method: 'POST', path: '/users/fee-tiers', body: { a: 1 } },
      {
        signal: undefined,
        timeout: undefined,
        totalTimeout: undefined,
        maxRetries: undefined,
        headers: undefined,
        maxResponseBytes: undefined,
        extraBody: undefined,
        extraQuery: undefined,
      },
    );
    expect(result).toEqual({ ok: true });
    expect(requests()).toHaveLength(1);
    expect(await requests()[0]?.json()).toEqual({ a: 1 });
  });
});
