/**
 * The tracing guide's "Sending it to an OTLP backend" runs as written: its `otel.mjs`, loaded with
 * `--import` before a worker and given the guide's variables (the endpoint and the header pointed
 * at a loopback collector), sends the worker's spans to that endpoint with that header, as OTLP,
 * and nothing secret goes with them. The trace exporter is the real one; `@opentelemetry/sdk-node`
 * and the metric exporter are not installed here and have stand-ins (`test/docs/stand-ins/`).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/doc-snippets';
import { json, type StubServer, startStub } from '../helpers/stub-server';
import { waitFor } from '../helpers/waits';

const SECTION = '## Sending it to an OTLP backend';

/** The body of the first fence of `language` after `SECTION` in the guide. */
function fence(language: string): string {
  const guide = readFileSync(`${ROOT}docs/tracing.md`, 'utf8');
  const from = guide.indexOf(`\`\`\`${language}\n`, guide.indexOf(SECTION));
  const start = from + language.length + 4;
  return guide.slice(start, guide.indexOf('\n```\n', start));
}

/** The `NAME=value` settings the guide's command line starts the worker with. */
function guideVariables(): Record<string, string> {
  const settings = [...fence('sh').matchAll(/^(OTEL_[A-Z_]+)=(\S+)/gm)];
  return Object.fromEntries(
    settings.map(([, name, value]) => [name!, value!.replace(/^"|"$/g, '')]),
  );
}

// A worker as the guide's command line runs it: one call, its spans left to the SDK's batching.
const WORKER = `
import { PartnerClient } from 'partner-sdk';
import { createMockPartnerApi } from 'partner-sdk/testing';
const mock = createMockPartnerApi();
const client = new PartnerClient({ baseUrl: mock.baseUrl, fetch: mock.fetch, ...mock.credentials });
await client.products.retrieve(mock.products.ebook.hash);
console.log(JSON.stringify({ secrets: [mock.products.ebook.hash, mock.credentials.clientSecret] }));
setInterval(() => {}, 1000); // a worker keeps running
`;

let child: ChildProcess | undefined;
let collector: StubServer | undefined;
afterEach(async () => {
  child?.kill('SIGKILL');
  await collector?.close();
  child = undefined;
  collector = undefined;
});

describe("the tracing guide's OTLP setup", { timeout: 60_000 }, () => {
  it("sends the worker's spans to the endpoint the variables name, with their header", async () => {
    collector = await startStub((_request, res) => json(res, 200, {}));
    const dir = `${ROOT}.tmp/otlp-guide`;
    mkdirSync(dir, { recursive: true });
    const standIn = (module: string) =>
      `${ROOT}test/docs/stand-ins/${module.replace(/^@/, '').replace(/\//g, '-')}.ts`;
    const otel = fence('js')
      .replace("'@opentelemetry/sdk-node'", `'${standIn('@opentelemetry/sdk-node')}'`)
      .replace(
        "'@opentelemetry/exporter-metrics-otlp-http'",
        `'${standIn('@opentelemetry/exporter-metrics-otlp-http')}'`,
      );
    writeFileSync(`${dir}/otel.mjs`, otel);
    writeFileSync(`${dir}/worker.mjs`, WORKER);
    const variables = guideVariables();
    // Run with: the endpoint at the loopback collector, and a key for the guide's `…`.
    expect(variables.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('https://otlp.example.com');
    expect(variables.OTEL_EXPORTER_OTLP_HEADERS).toBe('x-api-key=…');
    const env = {
      ...process.env,
      ...variables,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=collector-key',
      // The batch's standard delay, shortened so that the test does not wait out its default.
      OTEL_BSP_SCHEDULE_DELAY: '50',
    };
    const register = `${ROOT}examples/support/register.ts`;
    child = spawn(
      process.execPath,
      ['--import', register, '--import', `${dir}/otel.mjs`, `${dir}/worker.mjs`],
      { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const traces = () => collector!.requests.filter((request) => request.path === '/v1/traces');
    const sent = () => traces().some((request) => request.body.includes('"products.retrieve"'));
    await waitFor(sent, 'the spans of products.retrieve at the collector', 30_000).catch(
      (error: Error) => {
        throw new Error(`${error.message}\n${output}`);
      },
    );
    const exported = traces();
    expect(exported.every((request) => request.headers['x-api-key'] === 'collector-key')).toBe(
      true,
    );
    const body = exported.map((request) => request.body).join('\n');
    expect(body).toContain('"GET /products/{productHash}"');
    const { secrets } = JSON.parse(output.split('\n').find((line) => line.startsWith('{'))!) as {
      secrets: string[];
    };
    for (const secret of secrets) expect(body).not.toContain(secret);
  });
});
