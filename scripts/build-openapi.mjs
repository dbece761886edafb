// `npm run openapi` writes docs/openapi.json, the OpenAPI 3.1 document of the API, from the SDK's
// resource methods, zod schemas and TSDoc (scripts/openapi/); `npm run lint:openapi` (part of
// `npm run lint`) fails when the committed file differs from a fresh build. Run through
// examples/support/register.ts, which lets Node load src/ as it is.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_VERSION } from '../src/version.ts';
import { buildDocument } from './openapi/document.mjs';
import { resourceMethods, typeDocs } from './openapi/tsdoc.mjs';

const at = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const file = at('docs/openapi.json');
const document = await buildDocument({
  types: { ...typeDocs(at('src/schemas')), ...typeDocs(at('src/webhooks')) },
  methods: resourceMethods(at('src/resources')),
  resources: at('src/resources'),
  version: API_VERSION,
});
const text = `${JSON.stringify(document, null, 2)}\n`;

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {}
  if (committed !== text) {
    console.error(
      'docs/openapi.json is out of date with the schemas: run `npm run openapi` and commit it.',
    );
    process.exitCode = 1;
  } else {
    console.log('openapi: docs/openapi.json is up to date');
  }
} else {
  writeFileSync(file, text);
  console.log(`openapi: wrote docs/openapi.json (${Object.keys(document.paths).length} paths)`);
}
