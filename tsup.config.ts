import { defineConfig } from 'tsup';

// One output file per public entry point (DESIGN §1): `partner-sdk`, `/webhooks`, `/testing`, `/testing/msw`.
const entry = {
  index: 'src/index.ts',
  webhooks: 'src/webhooks/index.ts',
  testing: 'src/testing/index.ts',
  'testing-msw': 'src/testing/msw.ts',
};

// msw is an optional peer, used only by `partner-sdk/testing/msw`.
const external = ['msw', 'msw/node'];

export default defineConfig([
  {
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node22',
    treeshake: true,
    external,
  },
  {
    entry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'node22',
    treeshake: true,
    external,
    // ky ships ESM only; esbuild's interop cannot `require` it, so the CJS build carries its own copy.
    noExternal: ['ky'],
  },
]);
