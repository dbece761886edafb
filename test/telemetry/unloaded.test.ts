/**
 * The SDK's OpenTelemetry code (`src/telemetry/otel.ts`) is loaded only when a provider is
 * registered: without the API, or with the API and no provider, a process that makes calls never
 * loads it. Each case runs in a child process that records every module it loads (a `load` hook),
 * so a static import of `otel.ts` anywhere in the SDK fails the first two cases; the third shows the
 * hook does see the chunk when it is wanted.
 */

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
// npm scripts run the repository's pinned Node (node_modules/.bin comes first on their PATH).
const pinnedNode = `${root}node_modules/.bin/node`;
const node = existsSync(pinnedNode) ? pinnedNode : process.execPath;

interface Seen {
  called: boolean;
  otel: string[];
  gate: string[];
  api: boolean;
}

async function run(mode: 'absent' | 'no-provider' | 'provider'): Promise<Seen> {
  const { stdout } = await promisify(execFile)(
    node,
    ['--import', './examples/support/register.ts', 'test/telemetry/unloaded.child.ts', mode],
    { cwd: root, timeout: 30_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Seen;
}

// Past the child's own 30 s limit, so a slow child ends with its error rather than the test's.
describe('the OpenTelemetry chunk', { timeout: 45_000 }, () => {
  it('is never loaded without @opentelemetry/api, and the SDK does not load the API', async () => {
    const seen = await run('absent');
    expect(seen.called).toBe(true);
    expect(seen.gate).toHaveLength(1);
    expect(seen.otel).toEqual([]);
    expect(seen.api).toBe(false);
  });

  it('is never loaded with the API and a context manager but no provider', async () => {
    const seen = await run('no-provider');
    expect(seen.called).toBe(true);
    expect(seen.api).toBe(true);
    expect(seen.gate).toHaveLength(1);
    expect(seen.otel).toEqual([]);
  });

  it('is loaded once a provider is registered (the hook does see it)', async () => {
    const seen = await run('provider');
    expect(seen.called).toBe(true);
    expect(seen.otel).toHaveLength(1);
  });
});
