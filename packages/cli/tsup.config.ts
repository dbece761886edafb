import { defineConfig } from 'tsup';

// One ESM file for the `partner-sdk` bin; the SDK and commander stay dependencies, not copies.
// bullmq and the Redis clients are the user's to install (`--queue` loads them only then, and names
// the one missing): bundled, they would load without being installed, and `partner-sdk/bullmq`, which
// imports `bullmq` itself, would then fail with a bare module-not-found, beside a second copy.
export default defineConfig({
  entry: { bin: 'src/bin.ts' },
  format: ['esm'],
  target: 'node22',
  clean: true,
  sourcemap: true,
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
