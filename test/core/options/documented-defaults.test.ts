/**
 * The defaults the reference states, read where they are applied: `ClientOptions` ("Default
 * 30 000", "Default 120 000", "Default 2", "Default 32 MiB", "Default 'strict'", "else 'warn'").
 * `PollOptions`' defaults are held by `test/core/poll.test.ts`.
 */

import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveOptions } from '../../../src/core/options/resolve';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the defaults the reference states', () => {
  it('a client given only its address and token runs on them', () => {
    vi.stubEnv('PARTNER_API_LOG', '');
    const lines: string[] = [];
    const logger = {
      error: () => lines.push('error'),
      warn: () => lines.push('warn'),
      info: () => lines.push('info'),
      debug: () => lines.push('debug'),
    };
    const resolved = resolveOptions({
      baseUrl: 'https://partner.example.com/api/v1',
      clientToken: 'tok-123456',
      logger,
    });
    expect(resolved).toMatchObject({
      timeout: 30_000,
      totalTimeout: 120_000,
      maxRetries: 2,
      maxResponseBytes: 32 * 1024 * 1024,
      maxUploadBytes: 32 * 1024 * 1024,
      validateResponses: 'strict',
      fetch: undefined,
      defaultHeaders: {},
      pace: undefined,
    });
    // 'warn' by default: warnings and errors pass, info and debug do not.
    for (const level of ['error', 'warn', 'info', 'debug'] as const) resolved.logger[level]('x');
    expect(lines).toEqual(['error', 'warn']);
  });
});
