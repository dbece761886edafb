/**
 * A `Retry-After` beyond the 60 s cap must fail at once with `RateLimitError`
 * carrying the full wait (never retry before the service allows); a retry's log line says how
 * long it waits.
 */

import { describe, expect, it } from 'vitest';
import { InternalServerError, PartnerClient, RateLimitError } from '../../../src/index';
import { json, stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

describe('a Retry-After longer than the SDK waits', () => {
  it.each([
    { status: 429, wait: '300', ErrorClass: RateLimitError },
    { status: 503, wait: '600', ErrorClass: InternalServerError },
  ])(
    'fails a $status at once with its error carrying the full $wait s, one request sent',
    async ({ status, wait, ErrorClass }) => {
      const server = await stub((_req, res) =>
        json(res, status, { message: 'Not now.' }, { 'retry-after': wait }),
      );
      const client = new PartnerClient({
        baseUrl: server.baseUrl,
        clientToken: 'rate-token-1',
        logLevel: 'off',
        totalTimeout: 900_000,
      });
      const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ErrorClass);
      expect((error as RateLimitError | InternalServerError).retryAfterMs).toBe(
        Number(wait) * 1000,
      );
      expect(server.requests).toHaveLength(1);
    },
    10_000,
  );

  it('says in the retry warning how long it waits', async () => {
    let calls = 0;
    const server = await stub((_req, res) =>
      calls++ === 0
        ? json(res, 429, {}, { 'retry-after': '1' })
        : json(res, 200, { hash: 'prd_1', name: 'Curso' }),
    );
    const lines: string[] = [];
    const logger = {
      error: () => {},
      warn: (message: string) => lines.push(message),
      info: () => {},
      debug: () => {},
    };
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'rate-token-1',
      logger,
    });
    await client.products.retrieve('prd_1');
    expect(lines).toEqual([expect.stringMatching(/after HTTP 429 \(retry 1, waiting 1000 ms\)$/)]);
  }, 10_000);
});
