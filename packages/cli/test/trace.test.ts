import { createMockPartnerApi, type MockServer } from 'partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, jsonLines } from './run-cli';

const mock = createMockPartnerApi({ refundPolls: 0, exportPolls: 0 });
let server: MockServer;
beforeAll(async () => {
  server = await mock.listen();
});
afterAll(async () => {
  await server?.close();
});

describe('partner-sdk --trace', { timeout: 120_000 }, () => {
  it('writes the spans of the calls to stderr as JSON lines, stdout unchanged', async () => {
    const { course } = mock.products;
    const result = await cli(['--trace', '--json', 'products', 'get', course.hash], {
      env: {
        PARTNER_API_BASE_URL: server.url,
        PARTNER_API_CLIENT_ID: mock.credentials.clientId,
        PARTNER_API_CLIENT_SECRET: mock.credentials.clientSecret,
        PARTNER_API_CLIENT_TOKEN: undefined,
        OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
      },
    });
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toEqual([expect.objectContaining({ hash: course.hash })]);
    const spans = jsonLines(result.stderr) as { name: string; span: string; parent?: string }[];
    const call = spans.find((span) => span.name === 'products.retrieve');
    expect(call).toBeDefined();
    expect(spans).toContainEqual(
      expect.objectContaining({ name: 'GET /products/{productHash}', parent: call!.span }),
    );
    expect(result.stderr).not.toContain(course.hash);
  });
});
