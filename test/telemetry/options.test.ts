import { describe, expect, it } from 'vitest';
import { kit } from './client';
import { makeOtel, useOtel } from './harness';

const global = useOtel();

describe('the telemetry option', () => {
  it('records nothing with telemetry: false, even with providers registered', async () => {
    const { mock, client } = kit({ telemetry: false });
    await client.products.retrieve(mock.products.ebook.hash);
    expect(global().spans()).toEqual([]);
    expect(await global().points()).toEqual([]);
  });

  it('sends spans and metrics to the providers passed instead of the global ones', async () => {
    const own = makeOtel();
    const { mock, client } = kit({
      telemetry: { tracerProvider: own.tracerProvider, meterProvider: own.meterProvider },
    });
    await client.products.retrieve(mock.products.ebook.hash);
    expect(global().spans()).toEqual([]);
    expect(own.spans().map((span) => span.name)).toContain('products.retrieve');
    expect((await own.points()).map((point) => point.metric)).toContain(
      'http.client.request.duration',
    );
  });

  it('records the raw path only when recordIds asks for it', async () => {
    const { mock, client } = kit({ telemetry: { recordIds: true } });
    const hash = mock.products.ebook.hash;
    await client.products.retrieve(hash);
    const attempt = global()
      .spans()
      .find((span) => span.name === 'GET /products/{productHash}');
    expect(attempt?.attributes['url.path']).toBe(
      `${new URL(mock.baseUrl).pathname}/products/${hash}`,
    );
  });
});
