/**
 * Each field's spec note lives in the TSDoc beside its schema (no longer as a runtime description:
 * issue 8 measured that copy at ~3 KB gzipped and a tenth of the import time). These tests keep the
 * promise that replaced it: every field has its note, and a partner hovering a field in the IDE
 * sees it on the inferred type.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCHEMA_DIR = `${ROOT}src/schemas/`;

/** `file: object.field` for every property of a `z.looseObject({ … })` shape without TSDoc. */
function undocumentedFields(): string[] {
  const missing: string[] = [];
  for (const name of readdirSync(SCHEMA_DIR).filter((file) => file.endsWith('.ts'))) {
    const text = readFileSync(SCHEMA_DIR + name, 'utf8');
    const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        node.expression.getText(source) === 'z.looseObject' &&
        node.arguments[0] &&
        ts.isObjectLiteralExpression(node.arguments[0])
      ) {
        for (const property of node.arguments[0].properties) {
          const docs = ts.getJSDocCommentsAndTags(property).filter(ts.isJSDoc);
          const note = docs.map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '').join('');
          if (note.trim().length < 3) missing.push(`${name}: ${property.name?.getText(source)}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return missing;
}

/** What the IDE shows when hovering the last occurrence of `marker` in `code`. */
function hover(code: string, marker: string): string {
  const fileName = `${ROOT}test/schemas/hover-probe.ts`;
  const config = ts.getParsedCommandLineOfConfigFile(
    `${ROOT}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [fileName],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => {
      const text = name === fileName ? code : ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => ROOT,
    getCompilationSettings: () => config.options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (name) => name === fileName || ts.sys.fileExists(name),
    readFile: (name) => (name === fileName ? code : ts.sys.readFile(name)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const info = ts
    .createLanguageService(host)
    .getQuickInfoAtPosition(fileName, code.lastIndexOf(marker) + 1);
  return ts.displayPartsToString(info?.documentation);
}

describe('field notes', () => {
  it('every field of every object schema carries its spec note as TSDoc', () => {
    expect(undocumentedFields()).toEqual([]);
  });

  it('shows a response field’s note on the inferred type, where a partner hovers', () => {
    const code = [
      "import type { Product } from 'partner-sdk';",
      'declare const product: Product;',
      'product.refund_deadline;',
    ].join('\n');
    expect(hover(code, 'refund_deadline')).toBe('Refund deadline in days; allowed 7, 15, 30.');
  }, 30_000);

  it('shows a request field’s note, limits included, on the params type', () => {
    const code = [
      "import type { UpdateOfferParams } from 'partner-sdk';",
      'const params: UpdateOfferParams = { quantity_items: 1 };',
    ].join('\n');
    expect(hover(code, 'quantity_items')).toMatch(/1 to 100/);
  }, 30_000);
});
