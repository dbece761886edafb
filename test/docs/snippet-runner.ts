/**
 * Runs one documented snippet (a guide's, or a JSDoc `@example`) as `snippets-run.test.ts` and
 * `jsdoc-examples-run.test.ts` do: turned into a module (`snippet-module.ts`) whose assumed names
 * are bound to real objects (`snippet-scope.ts`), with the environment a partner's process would
 * have (PARTNER_API_* at the kit); a Worker it exports is sent a webhook delivery
 * (`snippet-worker.ts`). It fails when the snippet throws, when it does not finish
 * within its bound, when it leaves a server listening or writes where the partner's process runs.
 */

import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { context, metrics, trace } from '@opentelemetry/api';
import { expect, vi } from 'vitest';
import { ROOT, type Snippet } from '../helpers/doc-snippets';
import { runnableModule } from './snippet-module';
import { SCOPE, SnippetRun } from './snippet-scope';
import { deliverToWorker, isWorker } from './snippet-worker';

/** How long one snippet may take, its kit's start and its clean-up included. */
export const SNIPPET_BOUND_MS = 20_000;

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

/** Runs `snippet` against a fresh kit, its module written under `dir`; Redis at `redisUrl`. */
export async function runSnippet(snippet: Snippet, redisUrl: string, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const servers = listening();
  const files = readdirSync(ROOT);
  const provided = Object.keys(SCOPE);
  const file = `${dir}/${snippet.file.replace(/[/.]/g, '_')}_${snippet.line}.ts`;
  const { source, names } = runnableModule(snippet, provided);
  writeFileSync(file, source);
  const run = await SnippetRun.start(redisUrl);
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
    const where = `${snippet.file}:${snippet.line}`;
    declared = await within(module.default(scope), SNIPPET_BOUND_MS, where);
    const { defaultExport } = declared;
    if (isWorker(defaultExport)) {
      await within(deliverToWorker(run, defaultExport), SNIPPET_BOUND_MS, `${where}'s Worker`);
    }
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
}
