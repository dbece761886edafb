import { defineConfig } from 'tsup';

// One ESM file for the `partner-sdk` bin; the SDK and commander stay dependencies, not copies.
export default defineConfig({
  entry: { bin: 'src/bin.ts' },
  format: ['esm'],
  target: 'node22',
  clean: true,
  sourcemap: true,
  external: ['partner-sdk', 'partner-sdk/bulk', 'partner-sdk/testing', 'commander'],
});
