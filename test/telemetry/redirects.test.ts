import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing/index';
import { spanTree, useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

const otel = useOtel();

/**
 * A fetch answering a product read with one redirect of `status` to the same URL as `moved` makes
 * it (which must set `moved`), and everything else, the moved read included, from `mock`.
 */
function redirectOnce(
  mock: ReturnType<typeof createMockPartnerApi>,
  status: number,
  moved: (url: URL) => void,
) {
  return async (input: Request | URL | string, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (!url.pathname.includes('/products/') || url.searchParams.has('moved'))
      return mock.fetch(request);
    moved(url);
    return new Response(null, { status, headers: { location: url.href } });
  };
}

describe('a redirected call traced with the real OpenTelemetry SDK', () => {
  it('records each hop as an attempt under the call, the hop after a redirect a resend, its secret query scrubbed', async () => {
    const mock = createMockPartnerApi();
    const redirecting = redirectOnce(mock, 307, (url) => {
      url.search = '?moved=1&token=s3cr3t-value';
    });
    const { client } = kit({ fetch: redirecting, telemetry: { recordIds: true } }, mock);
    await client.products.retrieve(mock.products.ebook.hash);
    const call = spanTree(otel().spans()).find((span) => span.name === 'products.retrieve')!;
    expect(call.status).toBe(SpanStatusCode.UNSET);
    const [first, second, ...more] = call.children.filter((span) => span.kind === SpanKind.CLIENT);
    expect(more).toEqual([]);
    expect(first?.attributes['http.response.status_code']).toBe(307);
    expect(first?.attributes['error.type']).toBeUndefined();
    expect(first?.status).toBe(SpanStatusCode.UNSET);
    expect(second?.attributes['http.request.resend_count']).toBe(1);
    expect(second?.attributes['http.response.status_code']).toBe(200);
    expect(second?.attributes['url.full']).toMatch(/[?&]moved=1&token=REDACTED$/);
    expect(
      JSON.stringify(
        otel()
          .spans()
          .map((span) => span.attributes),
      ),
    ).not.toContain('s3cr3t');
    const durations = (await otel().points()).filter(
      (point) => point.metric === 'http.client.request.duration',
    );
    expect(durations.map((point) => point.attributes['http.response.status_code']).sort()).toEqual([
      200, 200, 307,
    ]);
    expect(durations.every((point) => point.attributes['error.type'] === undefined)).toBe(true);
  });

  it("records no fragment of a hop's Location in url.full: it is never sent, and may hold a token", async () => {
    const mock = createMockPartnerApi();
    const redirecting = redirectOnce(mock, 302, (url) => {
      url.search = '?moved=1';
      url.hash = '#access_token=fr4gm3nt-secret';
    });
    const { client } = kit({ fetch: redirecting, telemetry: { recordIds: true } }, mock);
    await client.products.retrieve(mock.products.ebook.hash);
    const attempts = otel()
      .spans()
      .filter((span) => span.kind === SpanKind.CLIENT && span.name.startsWith('GET'));
    expect(attempts.map((span) => span.attributes['url.full'])).toEqual([
      expect.stringMatching(/\/products\/[^?#]+$/),
      expect.stringMatching(/\/products\/[^?#]+\?moved=1$/),
    ]);
    expect(
      JSON.stringify(
        otel()
          .spans()
          .map((span) => span.attributes),
      ),
    ).not.toContain('fr4gm3nt');
  });
});
