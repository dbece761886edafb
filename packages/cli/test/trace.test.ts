import { readFileSync } from 'node:fs';
import { VERSION } from 'partner-sdk';
import { createMockPartnerApi, type MockServer } from 'partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startStub } from '../../../test/helpers/stub-server';
import { cli, jsonLines, tracedRunEnv } from './run-cli';

const mock = createMockPartnerApi({ refundPolls: 0, exportPolls: 0 });
let server: MockServer;
beforeAll(async () => {
  server = await mock.listen();
});
afterAll(async () => {
  await server?.close();
});

const credentials = () => tracedRunEnv(mock, server);

describe('partner-sdk --trace', { timeout: 120_000 }, () => {
  it('writes the spans of the calls to stderr as JSON lines, stdout unchanged', async () => {
    const { course } = mock.products;
    const result = await cli(['--trace', '--json', 'products', 'get', course.hash], {
      env: credentials(),
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

  it('sends the spans to the OTLP endpoint under OTEL_SERVICE_NAME, with nothing secret in them', async () => {
    const collector = await startStub((_request, res) => json(res, 200, {}));
    try {
      const hash = mock.addTransaction(1990);
      const result = await cli(['--trace', '--json', 'refunds', 'request', hash], {
        env: {
          ...credentials(),
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=collector-key-not-for-spans',
          OTEL_SERVICE_NAME: 'refund-runbook',
          OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=staging',
        },
      });
      expect(result.code).toBe(0);
      expect(result.stderr).not.toContain('PROTOCOL');
      expect(jsonLines(result.stdout)).toEqual([expect.objectContaining({ kind: 'accepted' })]);
      const posts = collector.requests.filter((request) => request.path === '/v1/traces');
      expect(posts.length).toBeGreaterThan(0);
      expect(posts[0]!.headers['x-api-key']).toBe('collector-key-not-for-spans');
      const bodies = posts.map((post) => post.body).join('\n');
      const resources = posts.flatMap(
        (post) =>
          (JSON.parse(post.body) as { resourceSpans: { resource: { attributes: unknown[] } }[] })
            .resourceSpans,
      );
      for (const { resource } of resources) {
        expect(resource.attributes).toContainEqual({
          key: 'service.name',
          value: { stringValue: 'refund-runbook' },
        });
        expect(resource.attributes).toContainEqual({
          key: 'deployment.environment.name',
          value: { stringValue: 'staging' },
        });
      }
      expect(bodies).toContain('"refunds.request"');
      expect(bodies).toContain('/financial/refund/{transactionHash}');
      for (const secret of [
        hash,
        mock.credentials.clientSecret,
        mock.sellers.person.publicToken,
        'collector-key-not-for-spans',
      ]) {
        expect(bodies).not.toContain(secret);
      }
    } finally {
      await collector.close();
    }
  });

  it('keeps the command’s output and exit code when the OTLP endpoint cannot be reached, saying so in one line', async () => {
    const gone = await startStub(() => {});
    const endpoint = gone.origin;
    await gone.close();
    const { course } = mock.products;
    const result = await cli(['--trace', '--json', 'products', 'get', course.hash], {
      env: {
        ...credentials(),
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_TIMEOUT: '1000',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=collector-key-not-for-logs',
      },
    });
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toEqual([expect.objectContaining({ hash: course.hash })]);
    const lines = result.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^partner-sdk: --trace: could not send the spans to the OTLP endpoint/,
    );
    expect(lines[0]).toContain('ECONNREFUSED');
    expect(result.stderr).not.toContain('collector-key-not-for-logs');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
  it('sends to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, as partner-sdk-cli, nothing on stderr', async () => {
    const collector = await startStub((_request, res) => json(res, 200, {}));
    try {
      const { course } = mock.products;
      const result = await cli(['--trace', '--json', 'products', 'get', course.hash], {
        env: {
          ...credentials(),
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.origin}/collector/spans`,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        },
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(jsonLines(result.stdout)).toEqual([expect.objectContaining({ hash: course.hash })]);
      expect(collector.requests.map((request) => request.path)).toEqual(['/collector/spans']);
      const body = collector.requests[0]!.body;
      expect(body).toContain('"products.retrieve"');
      expect(body).toContain('"GET /products/{productHash}"');
      expect(body).toContain('{"key":"service.name","value":{"stringValue":"partner-sdk-cli"}}');
    } finally {
      await collector.close();
    }
  });

  it('sends its spans as partner-sdk-cli at its own version, the SDK naming its own', async () => {
    const cliPackage = new URL('../package.json', import.meta.url);
    const { version } = JSON.parse(readFileSync(cliPackage, 'utf8')) as { version: string };
    const collector = await startStub((_request, res) => json(res, 200, {}));
    try {
      const result = await cli(['--trace', '--json', 'products', 'list'], {
        env: { ...credentials(), OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin },
      });
      expect(result.code).toBe(0);
      const body = collector.requests[0]?.body;
      // The CLI is released apart from the SDK: a trace says which of each ran.
      expect(body).toContain(`{"key":"service.version","value":{"stringValue":"${version}"}}`);
      expect(body).toContain(`"scope":{"name":"partner-sdk","version":"${VERSION}"}`);
    } finally {
      await collector.close();
    }
  });

  it('sends OTLP over HTTP as JSON whatever OTEL_EXPORTER_OTLP_PROTOCOL says, and says so once on stderr', async () => {
    const collector = await startStub((_request, res) => json(res, 200, {}));
    try {
      const { course } = mock.products;
      const result = await cli(['--trace', 'products', 'get', course.hash], {
        env: {
          ...credentials(),
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        },
      });
      expect(result.code).toBe(0);
      expect(result.stderr.trim().split('\n')).toEqual([
        'partner-sdk: --trace: OTEL_EXPORTER_OTLP_PROTOCOL is "http/protobuf"; the spans go as OTLP over HTTP in JSON (http/json)',
      ]);
      const [post] = collector.requests;
      expect(post?.path).toBe('/v1/traces');
      expect(post?.headers['content-type']).toBe('application/json');
      expect(post?.body).toContain('"products.retrieve"');
    } finally {
      await collector.close();
    }
  });

  it('names the traces protocol variable over the general one when it asks for gRPC', async () => {
    const collector = await startStub((_request, res) => json(res, 200, {}));
    try {
      const result = await cli(['--trace', 'products', 'get', mock.products.course.hash], {
        env: {
          ...credentials(),
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
        },
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(
        'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL is "grpc"; the spans go as OTLP over HTTP in JSON',
      );
      expect(collector.requests[0]?.headers['content-type']).toBe('application/json');
    } finally {
      await collector.close();
    }
  });
});
