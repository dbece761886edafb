import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Partner-style tests import the package by its public name; point those at the source.
    alias: [
      { find: /^partner-sdk\/testing\/msw$/, replacement: src('testing/msw.ts') },
      { find: /^partner-sdk\/testing$/, replacement: src('testing/index.ts') },
      { find: /^partner-sdk\/bulk$/, replacement: src('bulk/index.ts') },
      { find: /^partner-sdk\/webhooks$/, replacement: src('webhooks/index.ts') },
      { find: /^partner-sdk\/redis$/, replacement: src('redis/index.ts') },
      { find: /^partner-sdk$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'packages/cli/test/**/*.test.ts'],
    // The machines have 2 cores: more workers only make timing-sensitive tests flaky.
    maxWorkers: 2,
    testTimeout: 15_000,
    hookTimeout: 15_000,
    restoreMocks: true,
    // Type tests (`test/types/*.test-d.ts`: closed params, schema/type equality, public shapes)
    // run with every `npm test`, each assertion reported as a test; `npm run test:types` runs
    // them alone.
    typecheck: {
      enabled: true,
      include: ['test/types/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
