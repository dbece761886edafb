import { defineConfig } from 'tsup';

const entry = {
  index: 'src/index.ts',
};

export default defineConfig([
  {
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node22',
    treeshake: true,
  },
  {
    entry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'node22',
    treeshake: true,
    // ky ships ESM only; esbuild's interop cannot `require` it, so the CJS build carries its own copy.
    noExternal: ['ky'],
  },
]);
