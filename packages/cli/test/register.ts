/**
 * Runs the CLI from source, with no build: the examples' loader (which maps `partner-sdk` and its
 * subpaths to `src/`), plus the same extensionless-import rule for the CLI's own `src/`.
 * `node --import ./packages/cli/test/register.ts packages/cli/src/bin.ts --help`
 *
 * @module
 */

import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

// The examples' loader, by URL (a `.ts` specifier would need allowImportingTsExtensions).
await import(new URL('../../../examples/support/register.ts', import.meta.url).href);

const cliSource = new URL('../src/', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL ?? '';
    if (
      parent.startsWith(cliSource) &&
      /^\.\.?\//.test(specifier) &&
      !/\.[cm]?[jt]s$/.test(specifier)
    ) {
      for (const suffix of ['.ts', '/index.ts']) {
        const url = new URL(`${specifier}${suffix}`, parent);
        if (existsSync(fileURLToPath(url))) return { url: url.href, shortCircuit: true };
      }
    }
    return nextResolve(specifier, context);
  },
});
