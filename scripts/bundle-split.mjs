/**
 * What a page loads up front from a split bundle, and what only on demand: the entry and every
 * chunk it imports statically (esbuild puts code shared with an `import()`ed chunk into a chunk of
 * its own, which the entry still loads at once), against the chunks only `import()` reaches (the
 * OpenTelemetry code). Used by `check-bundle.mjs` and the bench, so both judge the same bytes.
 */

import path from 'node:path';

/**
 * Splits the outputs of an esbuild `result` (built with `splitting`, `metafile` and `write: false`)
 * into those loaded with the entry whose output path ends with `entrySuffix`, and the others.
 */
export function splitByLoading(result, entrySuffix) {
  const outputs = result.metafile.outputs;
  const fileOf = new Map(result.outputFiles.map((file) => [file.path, file]));
  const entry = Object.keys(outputs).find((key) => key.endsWith(entrySuffix));
  const upFront = new Set();
  const visit = (key) => {
    if (upFront.has(key)) return;
    upFront.add(key);
    for (const imported of outputs[key].imports) {
      if (imported.kind === 'import-statement' && imported.path in outputs) visit(imported.path);
    }
  };
  visit(entry);
  const files = (keys) => keys.map((key) => fileOf.get(path.resolve(key))).filter(Boolean);
  const all = Object.keys(outputs).filter((key) => key.endsWith('.js'));
  return {
    upFront: files(all.filter((key) => upFront.has(key))),
    onDemand: files(all.filter((key) => !upFront.has(key))),
  };
}
