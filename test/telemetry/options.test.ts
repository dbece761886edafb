import { describe, expect, it } from 'vitest';
import { makeOtel, useOtel } from '../helpers/otel-harness';
import { kit } from '../helpers/virtual-kit';

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

  it('records url.full (path and query) on each attempt only when recordIds asks for it', async () => {
    const { mock, client } = kit({ telemetry: { recordIds: true } });
    const hash = mock.products.ebook.hash;
    await client.products.retrieve(hash);
    await client.products.list({ per_page: 5, page: 2 });
    const attempts = global()
      .spans()
      .filter((span) => span.name.startsWith('GET /products'));
    expect(attempts.map((span) => span.attributes['url.full'])).toEqual([
      `${mock.baseUrl}/products/${hash}`,
      `${mock.baseUrl}/products?per_page=5&page=2`,
    ]);
    for (const span of attempts) expect(span.attributes).not.toHaveProperty('url.path');
  });

  it("keeps a pre-signed URL's signature and credentials out of url.full, naming their keys", async () => {
    const { mock, seller } = kit({ telemetry: { recordIds: true } });
    const signed = `${new URL(mock.baseUrl).origin}/files/exp_1.csv?X-Amz-Credential=AKIA7EXAMPLE&X-Amz-Signature=f00dcafe9b&sig=YmVlZi1zaWc&response-content-type=text%2Fcsv`;
    await seller.statements.download({ url: signed }).catch(() => undefined);
    const attempt = global()
      .spans()
      .find((span) => span.kind === 2 && span.name === 'GET');
    expect(attempt?.attributes['url.full']).toBe(
      `${new URL(mock.baseUrl).origin}/files/exp_1.csv?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED&sig=REDACTED&response-content-type=text%2Fcsv`,
    );
  });

  it('records no URL, path or query, and so no hash, without recordIds', async () => {
    const { mock, client } = kit();
    const hash = mock.products.ebook.hash;
    await client.products.retrieve(hash);
    await client.products.list({ per_page: 5, page: 2 });
    const spans = global().spans();
    expect(spans.length).toBeGreaterThan(2);
    for (const span of spans) {
      expect(span.attributes).not.toHaveProperty('url.full');
      expect(span.attributes).not.toHaveProperty('url.path');
      expect(span.attributes).not.toHaveProperty('url.query');
      expect(JSON.stringify(span.attributes)).not.toContain(hash);
    }
  });
});
