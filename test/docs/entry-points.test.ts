/**
 * The getting-started guide's table of entry points is where a new partner learns what the
 * package holds: it names every entry point `package.json` exports (`./package.json` aside), and
 * nothing that is not one. The map from each to its source (tsconfig.json's `paths`, which the
 * type checker, the tests' aliases and the examples' register hook all read) names the same.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/doc-snippets';

const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  exports: Record<string, unknown>;
};

/** The first column of the table under the guide's "Install" heading. */
function tabledEntryPoints(): string[] {
  const text = readFileSync(`${ROOT}docs/getting-started.md`, 'utf8');
  const section = text.slice(text.indexOf('## Install'), text.indexOf('## Create a client'));
  return [...section.matchAll(/^\| `(partner-sdk[^`]*)` \|/gm)].map((match) => match[1]!);
}

/** Each row of that table: the entry point and the names its second column says it holds. */
function tabledNames(): [entry: string, names: string[]][] {
  const text = readFileSync(`${ROOT}docs/getting-started.md`, 'utf8');
  const section = text.slice(text.indexOf('## Install'), text.indexOf('## Create a client'));
  return [...section.matchAll(/^\| `(partner-sdk[^`]*)` \| (.*) \|$/gm)].map((row) => {
    // Linked names ({@link "entry".Name}) and code names that look like an identifier; the
    // entry point's own name and package names (`bullmq`) are not exports.
    const linked = [...row[2]!.matchAll(/\{@link "[^"]+"\.(\w+)\}/g)].map((m) => m[1]!);
    const coded = [...row[2]!.matchAll(/`(\w+)`/g)].map((m) => m[1]!);
    const names = [...linked, ...coded].filter((name) => /^[A-Za-z]\w*$/.test(name));
    return [row[1]!, names.filter((name) => !['bullmq', 'msw'].includes(name))];
  });
}

/** Each entry point `package.json` exports, by the name a partner imports. */
const exported = Object.keys(manifest.exports)
  .filter((path) => path !== './package.json')
  .map((path) => (path === '.' ? 'partner-sdk' : `partner-sdk${path.slice(1)}`));

describe('the entry points the guides name', () => {
  it("getting started names every entry point of the package's exports in its table", () => {
    expect(tabledEntryPoints().sort()).toEqual(exported.sort());
  });

  it('each name the table says an entry point holds is exported by that entry point', async () => {
    const rows = tabledNames();
    expect(rows.length).toBe(exported.length);
    for (const [entry, names] of rows) {
      const module = (await import(entry)) as Record<string, unknown>;
      const missing = names.filter((name) => !(name in module));
      expect({ entry, missing }).toEqual({ entry, missing: [] });
    }
  });

  it("tsconfig.json's paths, by which the tests and the examples import the source, name each entry point", () => {
    const { paths } = JSON.parse(readFileSync(`${ROOT}tsconfig.json`, 'utf8')).compilerOptions as {
      paths: Record<string, string[]>;
    };
    expect(Object.keys(paths).sort()).toEqual(exported.sort());
  });

  it('the versioning guide counts every entry point in the public API its promises cover', () => {
    const text = readFileSync(`${ROOT}docs/versioning.md`, 'utf8');
    const sentence = /The public API is what[^.]*\./s.exec(text)?.[0] ?? '';
    const named = [...sentence.matchAll(/`(partner-sdk[^`]*)`/g)].map((match) => match[1]!);
    expect(named.sort()).toEqual(exported.sort());
  });
});
