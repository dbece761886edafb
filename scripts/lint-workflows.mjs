// `npm run lint:workflows`: the GitHub Actions workflows cannot run here, so they are checked
// statically with action-validator (@action-validator/core: the SchemaStore schema of workflows,
// compiled to WebAssembly inside the npm package, plus checks that the paths and globs it names
// exist). Prints each problem and exits non-zero if any workflow has one.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateWorkflow } from '@action-validator/core';

const dir = fileURLToPath(new URL('../.github/workflows/', import.meta.url));
const files = readdirSync(dir).filter((name) => /\.ya?ml$/.test(name));
let failed = 0;
for (const name of files) {
  const { errors } = validateWorkflow(readFileSync(join(dir, name), 'utf8'));
  for (const error of errors) {
    failed += 1;
    const where = error.path ? ` at ${error.path}` : '';
    console.error(
      `.github/workflows/${name}${where}: ${error.title ?? error.code}: ${error.detail ?? ''}`,
    );
  }
}
if (files.length === 0) {
  console.error('lint:workflows: no workflow found in .github/workflows');
  process.exitCode = 1;
} else if (failed > 0) {
  process.exitCode = 1;
} else {
  console.log(`workflows: ${files.length} checked, no problem`);
}
