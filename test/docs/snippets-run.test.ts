/**
 * Every TypeScript snippet of the guides and the README runs, not only type-checks: each is turned
 * into a module (`snippet-module.ts`) whose assumed names are bound to real objects
 * (`snippet-scope.ts`: a client pointed at the testing kit over loopback HTTP, the seller the kit
 * seeded, a Redis client on a `redis-server` started here, a BullMQ queue with a worker…), with
 * the environment a partner's process would have (PARTNER_API_* at the kit). A snippet fails this
 * test when it throws, or when it does not finish within its bound. What cannot run as written
 * on a test machine is replaced only where its marker says so, with its reason
 * (`<!-- snippet: run with \`3000\` as \`port\`: … -->`); the last test lists what ran, per file.
 */

import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { context, metrics, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentedFiles, marked, ROOT, type Snippet, snippetsOf } from '../helpers/doc-snippets';
import { type RedisServer, startRedisServer } from '../helpers/redis-server';
import { runnableModule } from './snippet-module';
import { SCOPE, SnippetRun } from './snippet-scope';

/** How long one snippet may take, its kit's start and its clean-up included. */
const SNIPPET_BOUND_MS = 20_000;

const snippets: Snippet[] = documentedFiles().flatMap(snippetsOf);
const dir = `${ROOT}.tmp/doc-snippets-run`;
const ran: Snippet[] = [];

let redis: RedisServer;
beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  redis = await startRedisServer();
}, 30_000);
afterAll(async () => {
  await redis?.close();
});

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Servers listening in this process: a snippet that leaves one open would hold its port. */
const listening = () =>
  process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

async function runSnippet(snippet: Snippet): Promise<void> {
  const servers = listening();
  const files = readdirSync(ROOT);
  const provided = Object.keys(SCOPE);
  const file = `${dir}/${snippet.file.replace(/[/.]/g, '_')}_${snippet.line}.ts`;
  const { source, names } = runnableModule(snippet, provided);
  writeFileSync(file, source);
  const run = await SnippetRun.start(redis.url);
  for (const [name, value] of Object.entries(run.env())) vi.stubEnv(name, value);
  // What a snippet prints is for its reader, not for the test's output.
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  let declared: Record<string, unknown> = {};
  try {
    const scope = await run.scope(names);
    const module = (await import(/* @vite-ignore */ file)) as {
      default: (scope: unknown) => Promise<Record<string, unknown>>;
    };
    declared = await within(
      module.default(scope),
      SNIPPET_BOUND_MS,
      `${snippet.file}:${snippet.line}`,
    );
  } finally {
    await run.close(declared);
    vi.unstubAllEnvs();
    // A tracing snippet registers global providers; the next snippet starts without them.
    trace.disable();
    metrics.disable();
    context.disable();
  }
  // What it opened is closed, and it wrote nothing where the partner's process runs.
  await vi.waitFor(() => expect(listening()).toBeLessThanOrEqual(servers), { timeout: 10_000 });
  expect(readdirSync(ROOT)).toEqual(files);
  ran.push(snippet);
}

// In file order even in a shuffled run: the last test is the tally of the ones before it.
describe('every snippet of the guides and the README runs against the testing kit', {
  shuffle: false,
}, () => {
  for (const snippet of snippets) {
    it(
      `${snippet.file}:${snippet.line} (${snippet.section}) runs`,
      async () => {
        await runSnippet(snippet);
      },
      SNIPPET_BOUND_MS + 15_000,
    );
  }

  it('ran them all; per file:', () => {
    const perFile = new Map<string, number>();
    for (const snippet of ran) perFile.set(snippet.file, (perFile.get(snippet.file) ?? 0) + 1);
    console.info(
      [...perFile].map(([file, count]) => `${file}: ${count} run`).join('\n'),
      '\nreplaced when run:',
      snippets.flatMap((s) =>
        marked(s).substitutions.map((r) => `${s.file}:${s.line} ${r.from} → ${r.to} (${r.why})`),
      ),
    );
    const where = (list: typeof snippets) => list.map((s) => `${s.file}:${s.line}`).sort();
    expect(where(ran)).toEqual(where(snippets));
  });
});
