import { metrics, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { makeOtel, useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

const global = useOtel();

const names = (spans: readonly { name: string }[]) => spans.map((span) => span.name);

describe('the telemetry a client records to', () => {
  it('follows the globally registered providers from call to call, a replacement included', async () => {
    const { mock, client } = kit();
    const hash = mock.products.ebook.hash;
    await client.products.retrieve(hash);
    expect(names(global().spans())).toContain('products.retrieve');

    // The partner's app replaces its providers while the client lives on.
    const next = makeOtel();
    trace.disable();
    metrics.disable();
    trace.setGlobalTracerProvider(next.tracerProvider);
    metrics.setGlobalMeterProvider(next.meterProvider);
    global().exporter.reset();
    await client.products.retrieve(hash);
    expect(global().spans()).toEqual([]);
    expect(names(next.spans())).toEqual(['GET /products/{productHash}', 'products.retrieve']);
    expect((await next.points()).map((point) => point.metric)).toContain(
      'partner_sdk.operation.duration',
    );

    // And none registered any more: the next call records nowhere.
    trace.disable();
    metrics.disable();
    next.exporter.reset();
    await client.products.retrieve(hash);
    expect(next.spans()).toEqual([]);
    await next.tracerProvider.shutdown();
    await next.meterProvider.shutdown();
  });

  it('starts recording once a provider is registered after the client was made', async () => {
    trace.disable();
    metrics.disable();
    const { mock, client } = kit();
    await client.products.retrieve(mock.products.ebook.hash);
    const later = global();
    expect(later.spans()).toEqual([]);
    trace.setGlobalTracerProvider(later.tracerProvider);
    await client.products.retrieve(mock.products.ebook.hash);
    expect(names(later.spans())).toEqual(['GET /products/{productHash}', 'products.retrieve']);
  });
});
