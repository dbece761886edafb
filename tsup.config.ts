import { defineConfig } from 'tsup';

// One output file per public entry point, so a partner loads only the entries they import:
// `partner-sdk`, `/webhooks`, `/testing`, `/testing/msw`, `/bulk`, `/redis`, `/bullmq`.
const entry = {
  index: 'src/index.ts',
  webhooks: 'src/webhooks/index.ts',
  testing: 'src/testing/index.ts',
  'testing-msw': 'src/testing/msw.ts',
  bulk: 'src/bulk/index.ts',
  redis: 'src/redis/index.ts',
  bullmq: 'src/bullmq/index.ts',
};
const { index, ...others } = entry;

// msw is an optional peer, used only by `partner-sdk/testing/msw`; bullmq, only by `/bullmq`.
const external = ['msw', 'msw/node', 'bullmq'];

// No source maps in the package: they would point at src/, which is not published, and the output
// is not minified, so a stack trace into dist/ already reads as the code that ran.
const common = { sourcemap: false, target: 'node22', treeshake: true, external } as const;

export default defineConfig([
  // The root as one file, without chunks shared with the other entries: each chunk file is one
  // more module to load on the cold import partners pay for. The code it shares with `/webhooks` and
  // `/testing` is copied into each, as in the CJS build; nothing depends on one copy (the error
  // classes' `instanceof` holds across copies).
  // Its one chunk is the OpenTelemetry code (`src/telemetry/otel.ts`), loaded with `import()` only
  // when a provider is registered; it shares no code with the root, so the root stays one file.
  { ...common, entry: { index }, format: ['esm'], splitting: true, dts: false },
  // The other entries share chunks: `/testing/msw` reaches the mock through `/testing`'s module
  // state. Their declarations, and the root's, are built here from one program.
  { ...common, entry: others, format: ['esm'], dts: { entry } },
  {
    ...common,
    entry,
    format: ['cjs'],
    dts: true,
    // ky ships ESM only; esbuild's interop cannot `require` it, so the CJS build carries its own copy.
    noExternal: ['ky'],
  },
]);
