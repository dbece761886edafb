import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** tsconfig.json's `paths`: each entry point's name and its file (`["./src/index.ts"]`). */
const { paths } = (
  JSON.parse(readFileSync(new URL('./tsconfig.json', import.meta.url), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  }
).compilerOptions;

/**
 * Tests that start processes (child Node processes, a real `redis-server`) or run at full scale
 * (the million-item heap test): the `integration` project. Everything else runs in the test's own
 * process and is the `unit` project, the quick loop (`npm run test:unit`).
 */
const INTEGRATION = [
  'test/redis/**/*.test.ts',
  'test/bullmq/**/*.test.ts',
  'test/examples/**/*.test.ts',
  // Type-checks every snippet of the guides with the TypeScript compiler: tens of seconds of CPU.
  'test/docs/**/*.test.ts',
  'packages/cli/test/**/*.test.ts',
  'test/bulk/kill-resume.test.ts',
  'test/bulk/one-writer.test.ts',
  'test/bulk/takeover-kill.test.ts',
  'test/bulk/heap.test.ts',
  'test/webhooks/receiver-edges.test.ts',
  // One-off scripts run to their end as child processes, to see what holds their event loop.
  'test/client-exits.test.ts',
  'test/client-memory.test.ts',
  'test/unhandled-rejections.test.ts',
  // 2,000 calls over loopback, time-outs and back-offs included: tens of seconds on a busy machine.
  'test/core/transport/one-signal-for-every-call.test.ts',
  // 10,000 calls logged at debug: seconds of CPU.
  'test/core/logging/volume.test.ts',
  // Timed ratios, in a process of their own, away from the secrets and heap of other files.
  'test/core/logging/redact-linear-time.test.ts',
  'test/bulk/bulk-exits.test.ts',
  'test/webhooks/receiver-exits.test.ts',
  'test/core/validation/without-eval.test.ts',
  'test/core/transport/env-proxy.test.ts',
  // Children moving hundreds of MiB and 5,000 calls at once, their memory sampled: a minute of CPU.
  'test/core/transport/big-bodies.test.ts',
  'test/telemetry/unloaded.test.ts',
  // Runs dependency-cruiser over a copy of src/ three times.
  'test/scripts/dependency-rules.test.ts',
  // Bundles entry points with esbuild, whose service is a child process.
  'test/core/errors/minified-names.test.ts',
];

export default defineConfig({
  resolve: {
    // Partner-style tests import the package by its public name; point those at the source, as
    // the type checker does (the examples' register hook reads the same `paths`).
    alias: Object.entries(paths).map(([name, [file]]) => ({
      find: new RegExp(`^${name}$`),
      replacement: fileURLToPath(new URL(file!, import.meta.url)),
    })),
  },
  test: {
    // The machines have 2 cores, but a third worker: much of the suite waits rather than computes
    // (child processes starting, Redis, polls a second apart), and a third file fills that time.
    // More would only crowd the tests that wait on time.
    maxWorkers: 3,
    testTimeout: 15_000,
    hookTimeout: 15_000,
    restoreMocks: true,
    env: {
      // The child processes the tests start (CLI, examples, replicas) load the source through
      // examples/support/register.ts, which turns on Node's compile cache in its default place.
      // Set from the start, the cache covers the hook itself too, so a child never loads the
      // type stripper.
      NODE_COMPILE_CACHE: join(tmpdir(), 'node-compile-cache'),
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: INTEGRATION,
          // One worker runs many files, importing the SDK, zod and msw once instead of per file
          // (half the CPU time of this project). Each file still sets up and tears down its own
          // state (the msw harness's `useMockApi`, `vi.unstubAllEnvs`, `vi.useRealTimers`).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
        },
      },
      {
        extends: true,
        test: {
          // The type tests (`test/types/*.test-d.ts`: closed params, schema/type equality, public
          // shapes), each assertion reported as a test. Their own tsconfig checks them and what
          // they import; `npm run typecheck` checks the whole project.
          name: 'types',
          typecheck: {
            enabled: true,
            only: true,
            include: ['test/types/**/*.test-d.ts'],
            tsconfig: './test/types/tsconfig.json',
          },
        },
      },
    ],
  },
});
