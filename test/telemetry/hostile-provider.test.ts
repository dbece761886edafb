import {
  context,
  type MeterProvider,
  metrics,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { makeOtel, throwingContextManager } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

/** A partner's span processor that breaks: every hook throws, as a misconfigured exporter's may. */
const throwing: SpanProcessor = {
  onStart() {
    throw new Error('processor failed on start');
  },
  onEnd() {
    throw new Error('exporter failed');
  },
  forceFlush: async () => {},
  shutdown: async () => {},
};

afterEach(() => {
  trace.disable();
  metrics.disable();
});

describe('a provider that throws', () => {
  it('never fails a call: the answer reaches the caller as without telemetry', async () => {
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [throwing] }));
    const { mock, client } = kit();
    const product = await client.products.retrieve(mock.products.ebook.hash);
    expect(product.hash).toBe(mock.products.ebook.hash);
  });

  it('never fails a call when the meter cannot make an instrument, nor record on one', async () => {
    const broken = () => {
      throw new Error('meter failed');
    };
    const instrument = { add: broken, record: broken };
    let made = 0;
    const meter = {
      createHistogram: () => (made++ === 0 ? broken() : instrument),
      createCounter: () => instrument,
    };
    metrics.setGlobalMeterProvider({ getMeter: () => meter } as unknown as MeterProvider);
    const { mock, client } = kit();
    const product = await client.products.retrieve(mock.products.ebook.hash);
    expect(product.hash).toBe(mock.products.ebook.hash);
    expect(made).toBeGreaterThan(0);
  });

  it('never fails a call when the providers cannot make a tracer or a meter', async () => {
    const broken = () => {
      throw new Error('provider failed');
    };
    trace.setGlobalTracerProvider({ getTracer: broken } as unknown as TracerProvider);
    metrics.setGlobalMeterProvider({ getMeter: broken } as unknown as MeterProvider);
    const { mock, client } = kit();
    const product = await client.products.retrieve(mock.products.ebook.hash);
    expect(product.hash).toBe(mock.products.ebook.hash);
  });

  it('never fails a call when the providers make things that are not whole tracers, spans or instruments', async () => {
    // As a partner's hand-made fakes in their own tests may be: a span with only `end`, a meter
    // whose instruments cannot record, a provider answering something that is no tracer at all.
    const partial = {
      getTracer: () => ({ startSpan: () => ({ end() {} }) }),
    } as unknown as TracerProvider;
    const mute = { getMeter: () => ({ createHistogram: () => ({}), createCounter: () => ({}) }) };
    const meterless = { getMeter: () => ({}) };
    const primitive = { getTracer: () => 42 };
    const shapes = [
      { tracerProvider: partial, meterProvider: mute },
      { tracerProvider: primitive, meterProvider: meterless },
      { meterProvider: { getMeter: () => 'meter' } },
    ];
    for (const telemetry of shapes) {
      const { mock, client } = kit({ telemetry });
      const hash = mock.products.ebook.hash;
      // A login (an event), a 429 retried (a failed attempt, a retry event and counter) and an answer.
      mock.failNext({ status: 429, retryAfter: 1, path: `/products/${hash}` });
      const product = await client.products.retrieve(hash);
      expect(product.hash).toBe(hash);
      // A failed call ends its span as failed: the error reaching the caller is the SDK's own.
      await expect(client.products.retrieve('prd_missing0')).rejects.toMatchObject({
        name: 'NotFoundError',
      });
    }
  });

  it('never fails a call when the registered context manager throws', async () => {
    context.setGlobalContextManager(throwingContextManager());
    try {
      const otel = makeOtel();
      const { mock, client } = kit({ telemetry: { tracerProvider: otel.tracerProvider } });
      const product = await client.products.retrieve(mock.products.ebook.hash);
      expect(product.hash).toBe(mock.products.ebook.hash);
      // A failed call fails with its own error, not the manager's.
      await expect(client.products.retrieve('prd_missing0')).rejects.toMatchObject({
        name: 'NotFoundError',
      });
    } finally {
      context.disable();
    }
  });
});
