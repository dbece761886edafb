import { defineConfig } from 'tsup';

// One ESM file for the `partner-sdk` bin; the SDK and commander stay dependencies, not copies.
// bullmq and the Redis clients are the user's to install (`--queue` loads them only then, and names
// the one missing): bundled, they would load without being installed, and `partner-sdk/bullmq`, which
// imports `bullmq` itself, would then fail with a bare module-not-found, beside a second copy.
// No source map: the bin runs without `--enable-source-maps` and the sources are not shipped, so a
// map would only add to the install.
export default defineConfig({
  entry: { bin: 'src/bin.ts' },
  format: ['esm'],
  target: 'node22',
  clean: true,
  sourcemap: false,
  external: [
    'partner-sdk',
    'partner-sdk/bulk',
    'partner-sdk/testing',
    'commander',
    'bullmq',
    'ioredis',
    'redis',
  ],
});
