/**
 * An interface a guide shows as the SDK's own contract (the bulk guide's journal store) names
 * every member the exported interface has, each optional where the SDK's is: a partner writing a
 * store from the guide must not miss a field the SDK writes or a method it calls when present.
 */

import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, snippetIn } from '../helpers/doc-snippets';

/** Each interface of `code` by name: its members' names, `?` after an optional one. */
function interfacesOf(code: string): Map<string, string[]> {
  const source = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, true);
  const found = new Map<string, string[]>();
  for (const statement of source.statements) {
    if (!ts.isInterfaceDeclaration(statement)) continue;
    const members = statement.members.map((member) => {
      const name = member.name?.getText(source) ?? '';
      return `${name}${member.questionToken ? '?' : ''}`;
    });
    found.set(statement.name.text, members.sort());
  }
  return found;
}

describe('contracts shown in the guides', () => {
  it("the bulk guide's JournalStore and JournalRecord are partner-sdk/bulk's, member for member", () => {
    const shown = interfacesOf(snippetIn('docs/bulk-and-cli.md', 'Your own journal store').code);
    const exported = interfacesOf(readFileSync(`${ROOT}src/bulk/journal.ts`, 'utf8'));
    for (const name of ['JournalStore', 'JournalRecord']) {
      expect(shown.get(name), name).toEqual(exported.get(name));
    }
  });
});
