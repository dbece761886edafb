/**
 * Redaction must not be quadratic. Any server the SDK talks to can send an error body of repeated
 * `eyJ`; the old JWT pattern backtracked on it and blocked the event loop. (The property test in
 * redact.property.test.ts beside this file bounds the growth; this one drives it through a real
 * socket.)
 */

import { describe, expect, it } from 'vitest';
import { InternalServerError, PartnerClient } from '../../../src/index';
import { stubsClosedAfterEach } from '../../helpers/stub-server';

const stub = stubsClosedAfterEach();

describe('an error body built to make redaction slow', () => {
  it('comes back as a typed error with its body, 300 KB of repeated eyJ', async () => {
    const hostile = 'eyJ'.repeat(100_000);
    const server = await stub((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(hostile);
    });
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'redact-token-1',
      logLevel: 'off',
      maxRetries: 0,
    });
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).body).toBe(hostile);
  }, 20_000);

  it('still masks a real JWT inside such text', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXZhbHVl';
    const server = await stub((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`${'eyJ'.repeat(1_000)} token ${jwt} end`);
    });
    const client = new PartnerClient({
      baseUrl: server.baseUrl,
      clientToken: 'redact-token-1',
      logLevel: 'off',
      maxRetries: 0,
    });
    const error = (await client.products.retrieve('prd_1').catch((e: unknown) => e)) as Error & {
      body: string;
    };
    expect(error.body).not.toContain(jwt);
    expect(error.body).toContain('token [REDACTED] end');
  }, 20_000);
});
