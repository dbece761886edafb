/**
 * What Cloudflare answers in front of the service: its 520–526 pages when the origin fails it
 * (statuses no RFC registers, named in messages as Cloudflare names them), and its rate limit
 * (error 1015) as a 429 with a one-line text for an API client or an HTML page for a browser.
 * Each is a typed error with the status and its phrase, the raw page kept on `body`, a read
 * repeated, and a refund reconciled, never sent again blindly: a 520 may come after the origin
 * acted.
 */

import {
  InternalServerError,
  PartnerClient,
  RateLimitError,
  type RefundRequestResult,
} from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { closedAfterEach, serveFetch } from '../../helpers/http-servers';
import { type StubServer, startStub } from '../../helpers/stub-server';

const TOKEN = 'cf-test-client-token-1234';

let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const { serve } = closedAfterEach();

/** Cloudflare's error page for `status`, its title as Cloudflare writes it. */
const cloudflarePage = (status: number, said: string) =>
  `<!DOCTYPE html>\n<html lang="en-US"><head><title>api.example.com | ${status}: ${said}</title></head><body><div id="cf-error-details"><h1>${said}</h1><span>Error code ${status}</span><span>Cloudflare Ray ID: 8a1b2c3d4e5f6789</span></div></body></html>`;

async function answering(status: number, body: string, headers: Record<string, string> = {}) {
  server = await startStub((_request, res) => {
    res.writeHead(status, {
      'content-type': 'text/html; charset=UTF-8',
      server: 'cloudflare',
      ...headers,
    });
    res.end(body);
  });
  return new PartnerClient({
    baseUrl: server.baseUrl,
    clientToken: TOKEN,
    logLevel: 'off',
    maxRetries: 1,
  });
}

describe("Cloudflare's pages for an origin that failed it", () => {
  it.each([
    [520, 'Web Server Returned an Unknown Error', 'Web server is returning an unknown error'],
    [521, 'Web Server Is Down', 'Web server is down'],
    [522, 'Connection Timed Out', 'Connection timed out'],
    [523, 'Origin Is Unreachable', 'Origin is unreachable'],
    [524, 'A Timeout Occurred', 'A timeout occurred'],
    [525, 'SSL Handshake Failed', 'SSL handshake failed'],
    [526, 'Invalid SSL Certificate', 'Invalid SSL certificate'],
  ])('a %i reads "%s", the page kept, a read repeated once', async (status, phrase, said) => {
    const page = cloudflarePage(status, said);
    const client = await answering(status, page);
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InternalServerError);
    const failed = error as InternalServerError;
    expect(failed.status).toBe(status);
    expect(failed.message).toBe(
      `GET /products/prd_1 → ${status} ${phrase}: the service answered with an HTML page`,
    );
    expect(failed.body).toBe(page);
    expect(failed.message).not.toContain(TOKEN);
    expect(server!.requests).toHaveLength(2);
  });
});

describe("Cloudflare's rate limit (error 1015)", () => {
  it('as the one line it gives an API client: RateLimitError quoting it, retried', async () => {
    const client = await answering(429, 'error code: 1015', {
      'content-type': 'text/plain; charset=UTF-8',
    });
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).message).toBe(
      'GET /products/prd_1 → 429 Too Many Requests: error code: 1015',
    );
    expect((error as RateLimitError).body).toBe('error code: 1015');
    expect((error as RateLimitError).retryAfterMs).toBeUndefined();
    expect(server!.requests).toHaveLength(2);
  });

  it('as its HTML page with a Retry-After past the cap: RateLimitError at once, the wait kept', async () => {
    const page = cloudflarePage(429, 'Access denied');
    const client = await answering(429, page, { 'retry-after': '120' });
    const error = await client.products.retrieve('prd_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).message).toBe(
      'GET /products/prd_1 → 429 Too Many Requests: the service answered with an HTML page',
    );
    expect((error as RateLimitError).retryAfterMs).toBe(120_000);
    expect((error as RateLimitError).body).toBe(page);
    expect(server!.requests).toHaveLength(1);
  });
});

describe('a refund request answered 520', () => {
  /**
   * The kit behind a Cloudflare that answers the first refund request 520, before passing it on
   * to the origin or after the origin acted on it.
   */
  async function behindCloudflare(when: 'before' | 'after') {
    const mock = createMockPartnerApi();
    let struck = false;
    const front = await serve(
      serveFetch(async (request) => {
        const refund = request.method === 'POST' && request.url.includes('/financial/refund/');
        if (!refund || struck) return mock.fetch(request);
        struck = true;
        if (when === 'after') await mock.fetch(request);
        return new Response(cloudflarePage(520, 'Web server is returning an unknown error'), {
          status: 520,
          headers: { 'content-type': 'text/html' },
        });
      }),
    );
    const seller = new PartnerClient({
      baseUrl: `${front.url}/api/v1`,
      clientToken: mock.credentials.clientToken,
      logLevel: 'off',
    }).forUser(mock.sellers.person.publicToken);
    const trx = mock.addTransaction();
    const calls = () =>
      mock.requests.filter((r) => r.path.startsWith('/financial/refund/')).map((r) => r.method);
    return { seller, trx, calls };
  }

  it('that never reached the origin: sent again once the refunds read shows none', async () => {
    const { seller, trx, calls } = await behindCloudflare('before');
    const result: RefundRequestResult = await seller.refunds.request(trx);
    expect(result.kind).toBe('accepted');
    // The reconciling read, then the one request that reached the origin.
    expect(calls()).toEqual(['GET', 'POST']);
  });

  it('after the origin acted: the refund it made is returned, never requested again', async () => {
    const { seller, trx, calls } = await behindCloudflare('after');
    const result = await seller.refunds.request(trx);
    expect(result).toMatchObject({ kind: 'existing', recovered: true });
    expect(calls()).toEqual(['POST', 'GET']);
  });
});
