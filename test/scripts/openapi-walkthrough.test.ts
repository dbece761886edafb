import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * CONTRIBUTING.md's "Add an endpoint" walk-through, done to a copy of the project: its schema
 * snippet added to the schema file, its method snippet to the resource file (each with the import
 * it needs), then `npm run openapi`'s command run in the copy. The document gains the operation
 * with nothing else written: no row in scripts/openapi/, no other source file.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const SCHEMA_FILE = 'src/schemas/product.ts';
const RESOURCE_FILE = 'src/resources/products.ts';
const DOCUMENT = 'docs/openapi.json';
let copy = '';

beforeEach(() => {
  copy = mkdtempSync(join(tmpdir(), 'partner-sdk-walkthrough-'));
  copyProject();
});
afterEach(() => rmSync(copy, { recursive: true, force: true }));

/** The ```ts snippets of the walk-through's section, their list indentation removed. */
function walkthroughSnippets(): string[] {
  const guide = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
  const section = guide.split('## Add an endpoint')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^( *)(`{3,})ts\n([\s\S]*?)^\1\2$/gm)].map(([, indent, , code]) =>
    (code ?? '')
      .split('\n')
      .map((line) => line.slice((indent ?? '').length))
      .join('\n'),
  );
}

/** The project as the generator needs it: sources, scripts, the loader hook, the document. */
function copyProject(): void {
  for (const path of [
    'src',
    'scripts',
    'examples/support',
    'package.json',
    'tsconfig.json',
    DOCUMENT,
  ]) {
    cpSync(join(root, path), join(copy, path), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
}

/** The walk-through's method snippet added at the end of the resource class. */
function addMethod(text: string, method: string): string {
  const classEnd = text.lastIndexOf('\n}');
  const indented = method.replace(/^(?=.)/gm, '  ');
  return `${text.slice(0, classEnd)}\n\n${indented.trimEnd()}${text.slice(classEnd)}`;
}

/** Changes `file` of the copy, with `imports` put after its last import line. */
function edit(file: string, imports: string, change: (text: string) => string): void {
  const text = readFileSync(join(copy, file), 'utf8');
  const lastImport = text.lastIndexOf('\nimport ');
  const afterImports = text.indexOf(';\n', lastImport) + 2;
  const withImport = `${text.slice(0, afterImports)}${imports}\n${text.slice(afterImports)}`;
  writeFileSync(join(copy, file), change(withImport));
}

/** `npm run openapi`'s command (with `--check` for `npm run lint:openapi`'s), run in the copy. */
function openapi(...args: string[]) {
  const script = ['--import', './examples/support/register.ts', 'scripts/build-openapi.mjs'];
  return spawnSync(process.execPath, [...script, ...args], {
    cwd: copy,
    encoding: 'utf8',
    timeout: 30_000,
  });
}

/** Each file under `dir` of the copy (node_modules, a link to the project's, aside) as a content hash. */
function fileHashes(dir = copy, hashes = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) fileHashes(path, hashes);
    else if (entry.isFile()) {
      const hash = createHash('sha256').update(readFileSync(path)).digest('hex');
      hashes.set(relative(copy, path), hash);
    }
  }
  return hashes;
}

describe("CONTRIBUTING.md's add-an-endpoint walk-through", () => {
  it('puts the new operation in docs/openapi.json from one schema file and one resource file', () => {
    const before = fileHashes();
    const [schema, method] = walkthroughSnippets();
    expect(schema).toContain('export const ProductSummaryResponseSchema');
    expect(method).toContain("operation: 'products.summary'");

    edit(SCHEMA_FILE, "import { type Envelope, envelope } from './response-fields';", (text) => {
      return `${text}\n${schema}`;
    });
    edit(
      RESOURCE_FILE,
      "import { type ProductSummary, ProductSummaryResponseSchema } from '../schemas/product';",
      (text) => addMethod(text, method ?? ''),
    );
    expect(openapi('--check').status, 'the committed document is stale after the edit').toBe(1);
    const built = openapi();
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);

    const after = fileHashes();
    const changed = [...after.keys()].filter((path) => after.get(path) !== before.get(path));
    expect(changed.sort()).toEqual([DOCUMENT, RESOURCE_FILE, SCHEMA_FILE].sort());

    const original = JSON.parse(readFileSync(join(root, DOCUMENT), 'utf8'));
    const document = JSON.parse(readFileSync(join(copy, DOCUMENT), 'utf8'));
    const operation = document.paths['/products/{product_hash}/summary']?.get;
    expect(operation).toMatchObject({
      operationId: 'products.summary',
      parameters: [{ name: 'product_hash', in: 'path', required: true }],
      responses: {
        200: {
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/ProductSummaryResponse' },
            },
          },
        },
      },
    });
    expect(operation.description).toContain("Reads a product's sales summary");
    expect(document.components.schemas.ProductSummary.properties).toHaveProperty('sales');

    // Everything else is as it was: the new path and its two schemas are the only additions.
    delete document.paths['/products/{product_hash}/summary'];
    delete document.components.schemas.ProductSummary;
    delete document.components.schemas.ProductSummaryResponse;
    expect(document).toEqual(original);
  }, 60_000);

  it('gives its schema as `npm run format` writes it, so that lint passes after the walk-through', () => {
    const [schema] = walkthroughSnippets();
    const biome = join(root, 'node_modules/@biomejs/biome/bin/biome');
    const formatted = spawnSync(process.execPath, [biome, 'format', '--stdin-file-path=x.ts'], {
      cwd: root,
      input: schema,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(formatted.status).toBe(0);
    expect(formatted.stdout).toBe(schema);
  });

  it('refuses, naming the method, a response schema that src/schemas does not export', () => {
    const [schema, method] = walkthroughSnippets();
    // The schema kept inside the resource file, where the document cannot name it.
    const local = (schema ?? '').replaceAll('export ', '');
    edit(
      RESOURCE_FILE,
      "import { type Envelope, envelope, maybe, NUMBER, responseObject } from '../schemas/response-fields';",
      (text) => `${addMethod(text, method ?? '')}\n${local}`,
    );
    const built = openapi();
    expect(built.status).toBe(1);
    expect(built.stderr).toContain(
      'openapi: products.summary uses a schema that src/schemas/index.ts does not export as XSchema',
    );
  }, 60_000);

  it('refuses params encoded before sending while operations.mjs does not give their wire body', () => {
    const [schema, method] = walkthroughSnippets();
    edit(SCHEMA_FILE, "import { type Envelope, envelope } from './response-fields';", (text) => {
      return `${text}\n${schema}`;
    });
    const encoded = (method ?? '').replace(
      "{ operation: 'products.summary',",
      "{ operation: 'products.summary', params: { value: {}, schema: ProductListParamsSchema, sendAs: 'json', encode: (p) => p },",
    );
    edit(
      RESOURCE_FILE,
      "import { type ProductSummary, ProductSummaryResponseSchema } from '../schemas/product';",
      (text) => addMethod(text, encoded),
    );
    const built = openapi();
    expect(built.status).toBe(1);
    expect(built.stderr).toContain(
      'openapi: products.summary encodes its params before sending: describe its wire body in scripts/openapi/operations.mjs',
    );
  }, 60_000);

  it('refuses an exception in operations.mjs for a method that no longer exists', () => {
    edit('src/resources/refunds.ts', '', (text) => text.replaceAll('retrieveStatus', 'statusOf'));
    const built = openapi();
    expect(built.status).toBe(1);
    expect(built.stderr).toContain(
      'openapi: operations.mjs describes refunds.retrieveStatus, which no method makes',
    );
  }, 60_000);
});
