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
  it('fails at once with RateLimitError carrying the full 300 s, one request sent', async () => {
    const server = await stub((_req, res) =>
      json(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '300' }),
    );
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'rate-token-1',
      logLevel: 'off',
      totalTimeout: 900_000,
    });
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(300_000);
    expect(server.requests).toHaveLength(1);
  }, 10_000);

  it("fails a 503 at once with InternalServerError carrying the service's full wait", async () => {
    const server = await stub((_req, res) =>
      json(res, 503, { message: 'Down for maintenance.' }, { 'retry-after': '600' }),
    );
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'rate-token-1',
      logLevel: 'off',
      totalTimeout: 900_000,
    });
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).retryAfterMs).toBe(600_000);
    expect(server.requests).toHaveLength(1);
  }, 10_000);

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
