/**
 * The SDK's calls carry no trace context: the spec names no such header, so a partner's active
 * trace is never sent, to the API or to any host a call is redirected to, even with a propagator
 * registered (as `NodeSDK` registers the W3C one).
 */

import { context, propagation, type TextMapPropagator, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockPartnerApi } from '../../src/testing/index';
import { useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

useOtel();

/** A propagator as the W3C and baggage ones behave, writing what a request would carry. */
const writing: TextMapPropagator = {
  inject(active, carrier, setter) {
    const span = trace.getSpanContext(active);
    if (!span) return;
    setter.set(carrier, 'traceparent', `00-${span.traceId}-${span.spanId}-01`);
    setter.set(carrier, 'tracestate', 'partner=1');
    setter.set(carrier, 'baggage', 'tenant=acme');
  },
  extract: (active) => active,
  fields: () => ['traceparent', 'tracestate', 'baggage'],
};

afterEach(() => {
  propagation.disable();
});

describe('trace context on the wire', () => {
  it('is never sent, to the API or to the host a call is redirected to', async () => {
    propagation.setGlobalPropagator(writing);
    const mock = createMockPartnerApi();
    const sent: { host: string; names: string[] }[] = [];
    const fetch = async (input: Request | URL | string, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      sent.push({ host: url.host, names: [...request.headers.keys()] });
      if (url.host === 'files.example') return new Response('a,b\n', { status: 200 });
      if (url.pathname.endsWith(`/products/${mock.products.ebook.hash}`)) {
        return new Response(null, {
          status: 307,
          headers: { location: 'https://files.example/moved.json' },
        });
      }
      return mock.fetch(request);
    };
    const { client, seller } = kit({ fetch }, mock);
    await trace.getTracer('partner-app').startActiveSpan('job', async (span) => {
      // The propagator is registered and would write a carrier handed to it.
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      expect(Object.keys(carrier)).toContain('traceparent');
      await client.products.list();
      await seller.statements.download({ url: 'https://files.example/statement.csv' });
      await client.products.retrieve(mock.products.ebook.hash).catch(() => {});
      span.end();
    });
    expect(new Set(sent.map((request) => request.host))).toEqual(
      new Set([new URL(mock.baseUrl).host, 'files.example']),
    );
    for (const request of sent) {
      expect(request.names).not.toContain('traceparent');
      expect(request.names).not.toContain('tracestate');
      expect(request.names).not.toContain('baggage');
    }
  });
});
