/**
 * Each field's spec note lives in the TSDoc of the named type beside its schema (the schemas are
 * proven to infer those types in test/types/schemas-match.test-d.ts). These tests keep the promise
 * that every field of every param and result type carries its note (with the spec section, and,
 * for a response field, when it is absent or `null`), and that a partner hovering a field in the
 * IDE sees it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The files holding the param and result types: every schema module, and the resources' own results. */
const TYPE_FILES = [
  ...readdirSync(`${ROOT}src/schemas/`)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `src/schemas/${file}`),
  'src/resources/refunds.ts',
  'src/resources/refund-answers.ts',
  'src/resources/statements.ts',
];

/** Option bags of the rule builders: documented, but not data of the service. */
const NOT_DATA = new Set(['TextRules', 'RangeRules', 'RuleIssue', 'RangeProblem']);

interface FieldDoc {
  where: string;
  doc: string;
  optional: boolean;
  nullable: boolean;
}

/** Every property of every exported data interface, with its TSDoc text. */
function fieldDocs(): FieldDoc[] {
  const fields: FieldDoc[] = [];
  for (const file of TYPE_FILES) {
    const source = ts.createSourceFile(
      file,
      readFileSync(ROOT + file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    for (const statement of source.statements) {
      if (!ts.isInterfaceDeclaration(statement) || NOT_DATA.has(statement.name.text)) continue;
      const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (!exported) continue;
      for (const member of statement.members) {
        if (!ts.isPropertySignature(member)) continue;
        const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
        fields.push({
          where: `${statement.name.text}.${member.name.getText(source)}`,
          doc: docs.map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '').join(' '),
          optional: member.questionToken !== undefined,
          nullable: /\bnull\b/.test(member.type?.getText(source) ?? ''),
        });
      }
    }
  }
  return fields;
}

const PROBE = `${ROOT}test/schemas/hover-probe.ts`;

/**
 * One language service for every hover, as an IDE keeps one: the next hover re-reads only the
 * probe file, not the SDK and the lib files again.
 */
let service: { probe: string; version: number; service: ts.LanguageService } | undefined;

function languageService() {
  if (service) return service;
  const config = ts.getParsedCommandLineOfConfigFile(
    `${ROOT}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const state = { probe: '', version: 0 };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [PROBE],
    getScriptVersion: (name) => (name === PROBE ? String(state.version) : '1'),
    getScriptSnapshot: (name) => {
      const text = name === PROBE ? state.probe : ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => ROOT,
    getCompilationSettings: () => config.options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (name) => name === PROBE || ts.sys.fileExists(name),
    readFile: (name) => (name === PROBE ? state.probe : ts.sys.readFile(name)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  service = Object.assign(state, { service: ts.createLanguageService(host) });
  return service;
}

/** What the IDE shows when hovering the last occurrence of `marker` in `code`. */
function hover(code: string, marker: string): string {
  const ide = languageService();
  ide.probe = code;
  ide.version += 1;
  const info = ide.service.getQuickInfoAtPosition(PROBE, code.lastIndexOf(marker) + 1);
  return ts.displayPartsToString(info?.documentation);
}

describe('field notes', () => {
  const fields = fieldDocs();

  it('finds the param and result types (a sanity check of the scan itself)', () => {
    const names = new Set(fields.map((field) => field.where.split('.')[0]));
    for (const name of [
      'Product',
      'Offer',
      'OfferUpdateParams',
      'User',
      'ProfileUpdateFields',
      'PersonProfileParams',
      'CompanyProfileParams',
    ]) {
      expect(names).toContain(name);
    }
    for (const name of [
      'BankAccount',
      'Refund',
      'RefundStatus',
      'RefundAccepted',
      'Anticipation',
    ]) {
      expect(names).toContain(name);
    }
    expect(fields.length).toBeGreaterThan(200);
  });

  it('every field of every param and result type carries a note', () => {
    expect(fields.filter((field) => field.doc.trim().length < 12).map((f) => f.where)).toEqual([]);
  });

  it('every field of a type taken from the spec names its section', () => {
    // The SDK's own shapes (RefundAccepted, RefundExisting, the 409 flag, a stream it takes) have no section.
    const own =
      /^(RefundAccepted|RefundExisting|StatementExportRequestResult|DateRange|ReadableStreamLike)\./;
    const missing = fields.filter((field) => !own.test(field.where) && !/§\d/.test(field.doc));
    expect(missing.map((field) => field.where)).toEqual([]);
  });

  it('every response field that may be missing says when it is absent or null', () => {
    const silent = fields.filter(
      (field) => field.optional && field.nullable && !/absent|null/i.test(field.doc),
    );
    expect(silent.map((field) => field.where)).toEqual([]);
  });

  it('every required response field says it is always present', () => {
    const responseTypes =
      /^(Product|Offer|User|BankAccount|Refund|RefundStatus|StatementExport|Anticipation|Envelope)\./;
    const silent = fields.filter(
      (field) =>
        responseTypes.test(field.where) &&
        !field.optional &&
        !/always (present|sent)/i.test(field.doc),
    );
    expect(silent.map((field) => field.where)).toEqual([]);
  });

  it('shows a response field’s note where a partner hovers it', () => {
    const code = [
      "import type { Product } from 'partner-sdk';",
      'declare const product: Product;',
      'product.refund_deadline;',
    ].join('\n');
    expect(hover(code, 'refund_deadline')).toMatch(/7, 15 or 30.*Spec §2\.5/);
  }, 30_000);

  it('shows a request field’s note, limits included, on the params type', () => {
    const code = [
      "import type { OfferUpdateParams } from 'partner-sdk';",
      'const params: OfferUpdateParams = { quantity_items: 1 };',
    ].join('\n');
    expect(hover(code, 'quantity_items')).toMatch(/1 to 100/);
  }, 30_000);
});
