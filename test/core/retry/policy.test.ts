import { NetworkError, TimeoutError } from 'ky';
import { describe, expect, it } from 'vitest';
import {
  FIRST_BACKOFF_MS,
  MAX_BACKOFF_MS,
  MAX_RETRY_AFTER_MS,
  mayHaveActed,
  retryDelay,
  retryReason,
  timeForWait,
} from '../../../src/core/retry/policy';
import { ErrorStatus } from '../../../src/core/transport/error-status';

// The decisions alone, on the errors the transport reports for one attempt; the loop that acts on them is
// tested over a real server in test/core/transport/engine.test.ts.

const request = new Request('https://api.test/api/v1/products?signature=sig-s3cr3t');
const httpError = (status: number, headers: Record<string, string> = {}) =>
  new ErrorStatus(new Response(null, { status, headers }), {});
const networkError = (code?: string) =>
  new NetworkError(request, {
    cause: new TypeError('fetch failed', {
      cause: code ? Object.assign(new Error(code), { code }) : undefined,
    }),
  });
const timeoutError = () => new TimeoutError(request);

const LOTS = 120_000;
const half = () => 0.5;

describe('retryDelay: what is retried', () => {
  it.each([408, 429, 500, 502, 503, 504, 507, 599])('retries HTTP %i under "always"', (status) => {
    expect(retryDelay(httpError(status), 'always', 1, LOTS, half)).toBeTypeOf('number');
  });

  it.each([400, 401, 403, 404, 409, 413, 422, 501])('never retries HTTP %i', (status) => {
    expect(retryDelay(httpError(status), 'always', 1, LOTS, half)).toBeUndefined();
  });

  it('retries time-outs and connection failures under "always"', () => {
    expect(retryDelay(timeoutError(), 'always', 1, LOTS, half)).toBeTypeOf('number');
    expect(retryDelay(networkError('ECONNRESET'), 'always', 1, LOTS, half)).toBeTypeOf('number');
  });

  it('retries under "unsent" only what the service cannot have acted on', () => {
    expect(retryDelay(httpError(429), 'unsent', 1, LOTS, half)).toBeTypeOf('number');
    expect(retryDelay(networkError('ECONNREFUSED'), 'unsent', 1, LOTS, half)).toBeTypeOf('number');
    expect(retryDelay(networkError('ENOTFOUND'), 'unsent', 1, LOTS, half)).toBeTypeOf('number');
    expect(retryDelay(httpError(503), 'unsent', 1, LOTS, half)).toBeUndefined();
    expect(retryDelay(networkError('ECONNRESET'), 'unsent', 1, LOTS, half)).toBeUndefined();
    expect(retryDelay(timeoutError(), 'unsent', 1, LOTS, half)).toBeUndefined();
  });

  it('retries nothing under "never"', () => {
    for (const error of [httpError(429), networkError('ECONNREFUSED'), timeoutError()]) {
      expect(retryDelay(error, 'never', 1, LOTS, half)).toBeUndefined();
    }
  });

  it('does not retry an error that is not a failed attempt (a bug, a bad option)', () => {
    expect(retryDelay(new TypeError('bad'), 'always', 1, LOTS, half)).toBeUndefined();
    expect(retryDelay('thrown string', 'always', 1, LOTS, half)).toBeUndefined();
  });
});

describe('retryDelay: how long it waits', () => {
  it('doubles the back-off for each retry, up to its cap, with full jitter', () => {
    const top = () => 1 - Number.EPSILON;
    const waits = [1, 2, 3, 4, 5, 6, 7].map((n) =>
      retryDelay(httpError(503), 'always', n, LOTS, top),
    );
    expect(waits.map((w) => Math.round(w ?? -1))).toEqual([
      FIRST_BACKOFF_MS,
      2 * FIRST_BACKOFF_MS,
      4 * FIRST_BACKOFF_MS,
      8 * FIRST_BACKOFF_MS,
      16 * FIRST_BACKOFF_MS,
      MAX_BACKOFF_MS,
      MAX_BACKOFF_MS,
    ]);
    expect(retryDelay(httpError(503), 'always', 3, LOTS, () => 0)).toBe(0);
    expect(retryDelay(httpError(503), 'always', 3, LOTS, half)).toBe(2 * FIRST_BACKOFF_MS);
  });

  it('waits what Retry-After asks, in seconds or as an HTTP date, without jitter', () => {
    expect(retryDelay(httpError(429, { 'retry-after': '3' }), 'always', 1, LOTS, half)).toBe(3_000);
    const date = new Date(Date.now() + 10_000).toUTCString();
    const wait = retryDelay(httpError(503, { 'retry-after': date }), 'always', 1, LOTS, half);
    expect(wait).toBeGreaterThan(8_000);
    expect(wait).toBeLessThanOrEqual(10_000);
  });

  it('never cuts a Retry-After beyond 60 s short: the call fails at once instead', () => {
    const wait = (seconds: number) =>
      retryDelay(httpError(429, { 'retry-after': String(seconds) }), 'always', 1, 10 * LOTS, half);
    expect(wait(3600)).toBeUndefined();
    expect(wait(MAX_RETRY_AFTER_MS / 1000)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('gives up at once when the wait would not end before the deadline', () => {
    expect(
      retryDelay(httpError(429, { 'retry-after': '30' }), 'always', 1, 5_000, half),
    ).toBeUndefined();
    expect(retryDelay(httpError(503), 'always', 5, 1_000, half)).toBeUndefined();
    expect(retryDelay(httpError(503), 'always', 5, 3_000, half)).toBe(2_400);
  });
});

describe('timeForWait', () => {
  it('keeps, after an answer, as long as that attempt took for the next one', () => {
    expect(timeForWait(httpError(503), 1_000, 200)).toBe(800);
    expect(timeForWait(httpError(429), 150, 200)).toBe(-50);
  });

  it('gives the whole remainder after a time-out or a connection failure', () => {
    expect(timeForWait(timeoutError(), 1_000, 300)).toBe(1_000);
    expect(timeForWait(networkError('ECONNRESET'), 1_000, 40)).toBe(1_000);
  });
});

describe('retryReason', () => {
  it('names the failure without the URL, whose query may hold a signature', () => {
    expect(retryReason(httpError(503))).toBe('HTTP 503');
    expect(retryReason(timeoutError())).toBe('a time-out');
    expect(retryReason(networkError('ECONNRESET'))).toBe('a connection failure (ECONNRESET)');
    expect(retryReason(networkError())).toBe('a connection failure');
    for (const error of [httpError(503), timeoutError(), networkError('ECONNRESET')]) {
      expect(retryReason(error)).not.toContain('sig-s3cr3t');
    }
  });
});

describe('mayHaveActed', () => {
  it('knows refused connections and unresolved names never arrived, however deeply wrapped', () => {
    expect(mayHaveActed(networkError('ECONNREFUSED'))).toBe(false);
    expect(mayHaveActed(networkError('EAI_AGAIN'))).toBe(false);
    expect(mayHaveActed(networkError('ECONNRESET'))).toBe(true);
    expect(mayHaveActed(new Error('no code'))).toBe(true);
  });

  it('counts a 408 and every 5xx as possibly acted on, never another 4xx', () => {
    for (const status of [408, 500, 501, 502, 503, 504]) {
      expect(mayHaveActed(httpError(status)), String(status)).toBe(true);
    }
    for (const status of [400, 401, 404, 409, 422, 429]) {
      expect(mayHaveActed(httpError(status)), String(status)).toBe(false);
    }
  });
});
