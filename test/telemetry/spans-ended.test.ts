/**
 * Every span the SDK starts is ended, on every way a call can stop: aborted in its retry wait, a
 * walk left with `break`, a bulk job left with `break`, a poll aborted, a webhook handler that
 * throws at once. A span never ended is never exported: the trace would lose exactly the call
 * that went wrong.
 */

import {
  BasicTracerProvider,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { requestRefunds } from '../../src/bulk';
import { APIUserAbortError } from '../../src/index';
import { createWebhookHandler } from '../../src/webhooks';
import { useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';
import { waitFor } from '../helpers/waits';

useOtel(); // the context manager, as a partner's app registers it

/** A provider that knows which spans were started and not (yet) ended. */
function tracking() {
  const open = new Map<string, string>();
  const ended: ReadableSpan[] = [];
  const processor: SpanProcessor = {
    onStart(span: Span) {
      open.set(span.spanContext().spanId, span.name);
    },
    onEnd(span: ReadableSpan) {
      open.delete(span.spanContext().spanId);
      ended.push(span);
    },
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [processor] });
  return { open, ended, telemetry: { tracerProvider } };
}

/** Waits (bounded) until every started span has ended; the names of those left open otherwise. */
async function leftOpen(open: Map<string, string>): Promise<string[]> {
  await waitFor(() => open.size === 0, 'every span ended', 2_000).catch(() => {});
  return [...open.values()];
}

describe('every span the SDK starts is ended', () => {
  it('when a call is aborted during its retry', async () => {
    const spans = tracking();
    const stop = new AbortController();
    let attempts = 0;
    const { mock, client } = kit({
      telemetry: spans.telemetry,
      // The retry's attempt is where the caller gives up.
      fetch: (input, init) => {
        if (String(input instanceof Request ? input.url : input).includes('/products/')) {
          if (++attempts === 2) stop.abort();
        }
        return mock.fetch(input, init);
      },
    });
    const hash = mock.products.ebook.hash;
    mock.failNext({ status: 503, retryAfter: 1, path: `/products/${hash}` });
    await expect(client.products.retrieve(hash, { signal: stop.signal })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(attempts).toBe(2);
    expect(await leftOpen(spans.open)).toEqual([]);
    expect(spans.ended.map((span) => span.name)).toContain('products.retrieve');
  });

  it('when a walk is left with break, and when a bulk job is', async () => {
    const spans = tracking();
    const { mock, client, seller } = kit({ telemetry: spans.telemetry });
    for await (const _ of client.products.list({ per_page: 1 })) break;
    const items = Array.from({ length: 20 }, () => mock.addTransaction(100));
    for await (const _ of requestRefunds(seller, items, { concurrency: 4 })) break;
    expect(await leftOpen(spans.open)).toEqual([]);
    expect(spans.ended.map((span) => span.name)).toEqual(
      expect.arrayContaining(['products.list', 'bulk.job', 'bulk.item', 'refunds.request']),
    );
  });

  it('when a poll is aborted', async () => {
    const spans = tracking();
    const { mock, seller } = kit({ telemetry: spans.telemetry });
    const hash = mock.addTransaction(100);
    mock.refundOutcome(hash, 'completed', { polls: 1_000_000 });
    await seller.refunds.request(hash);
    const stop = new AbortController();
    const waiting = seller.refunds.waitForCompletion(hash, { interval: 1, signal: stop.signal });
    await waitFor(
      () => spans.ended.some((span) => span.name === 'refunds.retrieveStatus'),
      'a first poll',
    );
    stop.abort();
    await expect(waiting).rejects.toBeInstanceOf(APIUserAbortError);
    expect(await leftOpen(spans.open)).toEqual([]);
    expect(spans.ended.map((span) => span.name)).toContain('refunds.waitForCompletion');
  });

  it('when a webhook handler throws at once, and when a body is not JSON', async () => {
    const spans = tracking();
    const handler = createWebhookHandler({
      telemetry: spans.telemetry,
      onError: () => {},
      onUnknown: () => {
        throw new Error('handler failed before any await');
      },
    });
    const deliver = (body: string) =>
      handler.fetch(new Request('http://127.0.0.1/webhooks', { method: 'POST', body }));
    const failed = await deliver(
      JSON.stringify({ event: 'x_new_event', payload: {}, metadata: {} }),
    );
    const invalid = await deliver('{not json');
    expect([failed.status, invalid.status]).toEqual([500, 400]);
    expect(await leftOpen(spans.open)).toEqual([]);
    expect(spans.ended.map((span) => span.name)).toEqual([
      'webhooks.delivery',
      'webhooks.delivery',
    ]);
  });
});
