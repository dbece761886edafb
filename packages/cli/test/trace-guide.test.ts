/**
 * The command lines of the tracing guide's "From the command line" run as written, against the
 * testing kit: the spans of `--trace refunds request --file cohort.csv` go to stderr as JSON lines
 * (`2> spans.jsonl`), or, with `OTEL_EXPORTER_OTLP_ENDPOINT` set, to that endpoint. What cannot run
 * as written here is replaced, and only that: the file is written to a temporary directory, and
 * the guide's `http://127.0.0.1:4318` is a loopback collector on a free port.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockPartnerApi, type MockServer } from 'partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startStub } from '../../../test/helpers/stub-server';
import { cli, jsonLines, tracedRunEnv } from './run-cli';

const GUIDE = new URL('../../../docs/tracing.md', import.meta.url);

/** Each command line of the guide's CLI section: its variables and its arguments. */
function guideCommands(): { env: Record<string, string>; args: string[]; stderrTo?: string }[] {
  const guide = readFileSync(GUIDE, 'utf8');
  const section = guide.indexOf('## From the command line');
  const from = guide.indexOf('```sh\n', section) + '```sh\n'.length;
  const lines = guide.slice(from, guide.indexOf('\n```\n', from)).split('\n');
  return lines.map((line) => {
    const words = line.trim().split(/\s+/);
    const env: Record<string, string> = {};
    while (/^[A-Z_]+=/.test(words[0]!)) {
      const [name, value] = words.shift()!.split(/=(.*)/);
      env[name!] = value!;
    }
    expect(words.shift()).toBe('partner-sdk');
    const redirect = words.indexOf('2>');
    const stderrTo = redirect === -1 ? undefined : words.splice(redirect, 2)[1];
    return { env, args: words, stderrTo };
  });
}

const mock = createMockPartnerApi({ refundPolls: 0, exportPolls: 0 });
let server: MockServer;
let dir: string;
beforeAll(async () => {
  server = await mock.listen();
  dir = mkdtempSync(join(tmpdir(), 'trace-guide-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const credentials = () => tracedRunEnv(mock, server);

/** The command's arguments with the cohort file at its place here. */
function cohortArgs(args: string[]): string[] {
  const cohort = join(dir, `cohort-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(cohort, `${mock.addTransaction(1990)}\n${mock.addTransaction(2990)}\n`);
  expect(args).toContain('cohort.csv');
  return args.map((arg) => (arg === 'cohort.csv' ? cohort : arg));
}

describe("the tracing guide's command lines", { timeout: 120_000 }, () => {
  it('write the spans of a cohort to stderr, or send them to the endpoint the variable names', async () => {
    const [toStderr, toCollector, ...more] = guideCommands();
    expect(more).toEqual([]);

    expect(toStderr!.stderrTo).toBe('spans.jsonl');
    const written = await cli(cohortArgs(toStderr!.args), { env: credentials() });
    expect(written.code).toBe(0);
    const spans = jsonLines(written.stderr) as { name: string }[];
    expect(spans.filter((span) => span.name === 'refunds.request')).toHaveLength(2);

    expect(toCollector!.env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://127.0.0.1:4318');
    const collector = await startStub((_request, res) => json(res, 200, {}));
    try {
      const sent = await cli(cohortArgs(toCollector!.args), {
        env: {
          ...credentials(),
          ...toCollector!.env,
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin,
        },
      });
      expect(sent.code).toBe(0);
      type Export = { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] };
      const names = collector.requests
        .filter((request) => request.path === '/v1/traces')
        .flatMap((request) => (JSON.parse(request.body) as Export).resourceSpans)
        .flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans))
        .map((span) => span.name);
      expect(names.filter((name) => name === 'refunds.request')).toHaveLength(2);
    } finally {
      await collector.close();
    }
  });
});
