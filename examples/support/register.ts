/**
 * Lets the examples run straight from this repository's source, with no build: Node 24 strips the
 * types, and this hook resolves what Node alone would not.
 *
 * - `partner-sdk`, `partner-sdk/webhooks`, `partner-sdk/testing`… map to their entry files in `src/`
 *   as `tsconfig.json`'s `paths` maps them for the type checker (read from there, not copied), so
 *   an example imports the SDK by its public name, exactly as a partner's code does.
 * - Extensionless relative imports inside `src/`, `examples/` and `test/` (written for a bundler, as
 *   tsconfig's `moduleResolution: Bundler` expects) get their `.ts` or `/index.ts`.
 *
 * Loaded with `node --import ./examples/support/register.ts examples/<name>.ts` (`npm run example`
 * does this for the quickstart). A partner's own project installs `partner-sdk` and needs none of it.
 *
 * @module
 */

import { existsSync, readFileSync } from 'node:fs';
import { enableCompileCache, registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);
// test/ too: the Redis tests run replicas as child processes through this hook; and the CLI's
// own sources, which its tests run with no build.
const ownCode = [
  new URL('src/', root).href,
  new URL('examples/', root).href,
  new URL('test/', root).href,
  new URL('packages/cli/src/', root).href,
];

/** tsconfig.json's `paths`: each entry point's name and its file (`["./src/index.ts"]`). */
const { paths } = (
  JSON.parse(readFileSync(new URL('tsconfig.json', root), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  }
).compilerOptions;

function sourceFile(specifier: string, parentURL: string): string | undefined {
  for (const suffix of ['.ts', '/index.ts']) {
    const url = new URL(`${specifier}${suffix}`, parentURL);
    if (existsSync(fileURLToPath(url))) return url.href;
  }
  return undefined;
}

// Node keeps the compiled (and type-stripped) modules in its compile cache under the system's temp
// directory: a second run starts in half the CPU time.
enableCompileCache();

registerHooks({
  resolve(specifier, context, nextResolve) {
    const entry = paths[specifier]?.[0];
    if (entry) return { url: new URL(entry, root).href, shortCircuit: true };
    const parent = context.parentURL ?? '';
    const ours = ownCode.some((dir) => parent.startsWith(dir));
    if (ours && /^\.\.?\//.test(specifier) && !/\.[cm]?[jt]s$/.test(specifier)) {
      const url = sourceFile(specifier, parent);
      if (url) return { url, shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
});
