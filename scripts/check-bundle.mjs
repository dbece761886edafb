#!/usr/bin/env node
/**
 * The root bundle's ceiling as a plain pass/fail (CONTRIBUTING.md, "Size rules"): `partner-sdk`
 * with every export and its dependencies, bundled for a browser as a partner's bundler would
 * (esbuild, ESM, minified, split), must stay within ROOT_CEILING_BYTES min+gzip. Split as every
 * bundler splits a dynamic `import()`: what loads up front is judged; what loads only on demand
 * (the OpenTelemetry code, fetched only when a provider is registered) is a chunk of its own,
 * printed beside it, as is zod's compiler (a chunk of its own, fetched after the import when the first
 * client is made, so that the import does not wait for it). `npm run bench` measures the same way. The ceiling is a guard against an
 * accidental heavy import, never a reason to make code harder to read.
 *
 * Usage: node scripts/check-bundle.mjs
 */

import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { splitByLoading } from './bundle-split.mjs';

const ROOT_CEILING_BYTES = 48 * 1024;
const ROOT = new URL('..', import.meta.url).pathname;

const result = await build({
  entryPoints: [`${ROOT}src/index.ts`],
  bundle: true,
  format: 'esm',
  minify: true,
  splitting: true,
  outdir: 'check-bundle',
  platform: 'browser',
  write: false,
  metafile: true,
  logLevel: 'silent',
});
const gzipOf = (output) => gzipSync(output.contents, { level: 9 }).length;
// The entry and the chunks it imports statically load at once; `import()`ed ones on demand.
const { upFront, onDemand } = splitByLoading(result, '/index.js');
const gzipBytes = upFront.reduce((sum, output) => sum + gzipOf(output), 0);
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
// Named after the module esbuild split off: `otel-…` (only with a provider), `compiler-…` (zod's
// compiler, fetched after the import when the first client is made).
const chunkName = (output) => path.basename(output.path).replace(/-[A-Z0-9]+\.js$/, '');
const lazy = onDemand.map((output) => `${chunkName(output)} ${kib(gzipOf(output))}`).join(', ');
const lazyNote = lazy ? ` (loaded on demand: ${lazy})` : '';
if (gzipBytes > ROOT_CEILING_BYTES) {
  console.error(
    `bundle: the root bundle is ${kib(gzipBytes)} min+gzip${lazyNote}, over its ${kib(ROOT_CEILING_BYTES)} ceiling`,
  );
  process.exit(1);
}
console.log(
  `bundle: root ${kib(gzipBytes)} min+gzip${lazyNote}, within ${kib(ROOT_CEILING_BYTES)}`,
);
