/**
 * Every `@example` block of the public API type-checks as a partner's file: the JSDoc examples are
 * what partners copy from their IDE, so a renamed option, a wrong argument order, a method that no
 * longer exists or a result field spelled otherwise breaks this test rather than their build.
 * The blocks are those of what the entry points export, as typedoc documents them
 * (`test/helpers/jsdoc-examples.ts`); each becomes a file importing the package by name, with
 * the names it assumes declared with precise types (`jsdoc-example-module.ts`). One program
 * checks them all; a failure names the symbol, the file and the line.
 */

import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/doc-snippets';
import { type JsdocExample, publicExamples } from '../helpers/jsdoc-examples';
import { type PartnerFile, partnerFile } from './jsdoc-example-module';

const { examples, exportsOf, entries, options, program: sdk, files, host } = publicExamples();

describe('the @example blocks of the public API', () => {
  it('are found on every entry point', () => {
    const perEntry = new Map<string, number>();
    for (const { entry } of examples) perEntry.set(entry, (perEntry.get(entry) ?? 0) + 1);
    console.info(`${examples.length} @example blocks:`, Object.fromEntries(perEntry));
    expect(examples.length).toBeGreaterThan(150);
    expect([...perEntry.keys()].sort()).toEqual(entries.map(({ specifier }) => specifier).sort());
  });

  it('type-check, each as a partner file importing partner-sdk by name', () => {
    const where = new Map<string, { example: JsdocExample; file: PartnerFile }>();
    for (const example of examples) {
      const path = `${ROOT}.tmp/jsdoc-examples/${example.file.replace(/[/.]/g, '_')}_${example.line}.ts`;
      const file = partnerFile(example, exportsOf);
      files.set(path, file.text);
      where.set(path, { example, file });
    }
    // Packages an example imports that this repository does not install, typed from their API.
    const modules = [`${ROOT}test/docs/stand-ins/pino.d.ts`];
    const program = ts.createProgram(
      [...entries.map(({ file }) => file), ...modules, ...files.keys()],
      options,
      host,
      sdk,
    );
    const problems = [...where].flatMap(([path, { example, file }]) => {
      const source = program.getSourceFile(path)!;
      const diagnostics = [
        ...program.getSyntacticDiagnostics(source),
        ...program.getSemanticDiagnostics(source),
      ];
      return diagnostics.map((diagnostic) => {
        const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        const at = example.line + 1 + (line - file.offset);
        const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
        return `${example.symbol} (${example.file}:${at}): ${text}`;
      });
    });
    expect(problems).toEqual([]);
  }, 180_000);
});
