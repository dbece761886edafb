#!/usr/bin/env node
/**
 * The root bundle's ceiling as a plain pass/fail (CONTRIBUTING.md, "Size rules"): `partner-sdk`
 * with every export and its dependencies, bundled for a browser as a partner's bundler would
 * (esbuild, ESM, minified), must stay within ROOT_CEILING_BYTES min+gzip. The ceiling is a guard
 * against an accidental heavy import, never a reason to make code harder to read; `npm run bench`
 * reports the size itself next to the other SDKs'.
 *
 * Usage: node scripts/check-bundle.mjs
 */

import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT_CEILING_BYTES = 48 * 1024;
const ROOT = new URL('..', import.meta.url).pathname;

const result = await build({
  entryPoints: [`${ROOT}src/index.ts`],
  bundle: true,
  format: 'esm',
  minify: true,
  platform: 'browser',
  write: false,
  logLevel: 'silent',
});
const gzipBytes = gzipSync(result.outputFiles[0].contents, { level: 9 }).length;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
if (gzipBytes > ROOT_CEILING_BYTES) {
  console.error(
    `bundle: the root bundle is ${kib(gzipBytes)} min+gzip, over its ${kib(ROOT_CEILING_BYTES)} ceiling`,
  );
  process.exit(1);
}
console.log(`bundle: root ${kib(gzipBytes)} min+gzip, within ${kib(ROOT_CEILING_BYTES)}`);
