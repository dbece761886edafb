import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  makeAPIError,
  NotFoundError,
  PartnerError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from '../../../src/core/errors';
import { registerSecret } from '../../../src/core/logging/known-secrets';

const request = { method: 'POST', path: '/financial/refund/HP1234567890' };

describe('error classes', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
  ])('maps HTTP %i to its own class with status, body, method and path', (status, ErrorClass) => {
    const error = makeAPIError(request, status, { message: 'nope' }, new Headers());
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(PartnerError);
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(status);
    expect(error.body).toEqual({ message: 'nope' });
    expect(error.method).toBe('POST');
    expect(error.path).toBe('/financial/refund/HP1234567890');
    expect(error.name).toBe(ErrorClass.name);
  });

  it('does not confuse sibling classes', () => {
    const error = makeAPIError(request, 404, undefined, new Headers());
    expect(error).not.toBeInstanceOf(ConflictError);
    expect(new PartnerError('x')).not.toBeInstanceOf(APIError);
  });

  it('formats messages as "METHOD path → status text: message"', () => {
    const error = makeAPIError(
      request,
      422,
      {
        message: 'The reason may not be greater than 1000 characters.',
        errors: { reason: ['The reason may not be greater than 1000 characters.'] },
      },
      new Headers(),
    );
    expect(error.message).toBe(
      'POST /financial/refund/HP1234567890 → 422 Unprocessable Entity: The reason may not be greater than 1000 characters.',
    );
  });

  it('reads Laravel field errors into fieldErrors, keeping dot-form keys', () => {
    const error = makeAPIError(
      { method: 'POST', path: '/users/update' },
      422,
      {
        message: 'The name must be at least 3 characters. (and 1 more error)',
        errors: {
          name: ['The name must be at least 3 characters.'],
          'phones.0.number': ['The phones.0.number format is invalid.'],
        },
      },
      new Headers(),
    ) as UnprocessableEntityError;
    expect(error.fieldErrors).toEqual({
      name: ['The name must be at least 3 characters.'],
      'phones.0.number': ['The phones.0.number format is invalid.'],
    });
  });

  it('names the registered-origin rule in a 403 message', () => {
    const error = makeAPIError(request, 403, { message: 'Forbidden.' }, new Headers());
    expect(error.message).toMatch(/registered/);
    expect(error.message).toMatch(/IP addresses and domains/);
  });

  it('keeps plain-text and HTML bodies as text', () => {
    const text = makeAPIError(request, 502, 'upstream down\nmore', new Headers());
    expect(text.body).toBe('upstream down\nmore');
    expect(text.message).toMatch(/→ 502 Bad Gateway: upstream down$/);
    const html = makeAPIError(request, 500, '<html><body>Oops</body></html>', new Headers());
    expect(html.body).toBe('<html><body>Oops</body></html>');
    expect(html.message).toMatch(/HTML page/);
  });

  it('reads Retry-After in seconds and as an HTTP date on RateLimitError', () => {
    const seconds = makeAPIError(
      request,
      429,
      undefined,
      new Headers({ 'retry-after': '7' }),
    ) as RateLimitError;
    expect(seconds.retryAfterMs).toBe(7000);
    const date = new Date(Date.now() + 30_000).toUTCString();
    const dated = makeAPIError(
      request,
      429,
      undefined,
      new Headers({ 'retry-after': date }),
    ) as RateLimitError;
    expect(dated.retryAfterMs).toBeGreaterThan(25_000);
    expect(dated.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('redacts echoed secrets from the body, message, String, JSON, inspect and stack', () => {
    const secret = 'super-secret-client-token-123';
    registerSecret(secret);
    const error = makeAPIError(
      request,
      401,
      {
        message: `token ${secret} expired`,
        client_token: secret,
        data: { public_token: 'pub-abcdef-1' },
      },
      new Headers(),
    );
    const renderings = [
      error.message,
      String(error),
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
      error.stack ?? '',
    ];
    for (const text of renderings) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('pub-abcdef-1');
    }
    expect(error.body).toEqual({
      message: 'token [REDACTED] expired',
      client_token: '[REDACTED]',
      data: { public_token: '[REDACTED]' },
    });
  });
});

describe('instanceof across copies of the package', () => {
  it('holds for an error created by a second, separately loaded copy of the module', async () => {
    // With the module registry reset, the import evaluates the error modules again: a distinct
    // copy of every class, as when a partner's app loads both the ESM and the CJS build.
    vi.resetModules();
    const copy = await import('../../../src/core/errors');
    expect(copy.NotFoundError).not.toBe(NotFoundError);
    const foreign = copy.makeAPIError(request, 404, undefined, new Headers());
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(foreign).toBeInstanceOf(APIError);
    expect(foreign).toBeInstanceOf(PartnerError);
    expect(foreign).not.toBeInstanceOf(ConflictError);
    const local = makeAPIError(request, 429, undefined, new Headers());
    expect(local).toBeInstanceOf(copy.RateLimitError);
    expect(local).not.toBeInstanceOf(copy.NotFoundError);
  });
});
