/**
 * The params types renamed in the schemas (`UpdateOfferParams` → `OfferUpdateParams`…) stay as
 * deprecated aliases for code written against the old names, but the package's own declarations
 * name the current type: what a partner's editor shows on a bulk item's or a BullMQ job's
 * `params` is the name to import, never one it then strikes through. Read over the sources the
 * declarations are built from (so it runs before a build, as CI's tests do), and over the examples
 * partners copy. Each is announced under Deprecated in CHANGELOG.md, where the versioning guide
 * (docs/versioning.md, "Deprecation") tells a partner upgrading to look.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);

/** `{ old: new }` for every `@deprecated Renamed {@link New}.` alias of `src/schemas/`. */
function deprecatedAliases(): Map<string, string> {
  const dir = new URL('src/schemas/', root);
  const aliases = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const text = readFileSync(new URL(name, dir), 'utf8');
    const found = text.matchAll(
      /@deprecated Renamed \{@link (\w+)\}\.\s*\*\/\s*export type (\w+) = \1;/g,
    );
    for (const [, current, old] of found) aliases.set(old as string, current as string);
  }
  return aliases;
}

/** Lines that name `old` as a type in use: not its alias, not a re-export, not its JSDoc. */
function usesOf(old: string, text: string): string[] {
  return text
    .split('\n')
    .filter((line) => new RegExp(`\\b${old}\\b`).test(line))
    .filter((line) => !/^\s*(export )?type \w+ = \w+;$/.test(line))
    .filter((line) => !/^export (type )?\{/.test(line) && !/^\s*\*/.test(line));
}

/** The text of every `### Deprecated` section of CHANGELOG.md, whichever release it is under. */
function deprecatedSections(): string {
  const changelog = readFileSync(new URL('CHANGELOG.md', root), 'utf8');
  const sections = changelog.split(/^(?=##+ )/m);
  const deprecated = sections.filter((section) => section.startsWith('### Deprecated\n'));
  // A wrapped line reads as one: an announcement may break between the old name and the new.
  return deprecated.join('\n').replace(/\s+/g, ' ');
}

describe('deprecated params names', () => {
  const aliases = deprecatedAliases();

  it('are found in the schemas', () => {
    expect(aliases.get('UpdateOfferParams')).toBe('OfferUpdateParams');
    expect(aliases.size).toBeGreaterThanOrEqual(8);
  });

  it('are named by no source the declarations are built from', () => {
    const src = new URL('src/', root);
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((name) =>
      name.endsWith('.ts'),
    );
    const uses = files.flatMap((name) => {
      const text = readFileSync(new URL(name, src), 'utf8');
      return [...aliases.keys()].flatMap((old) =>
        usesOf(old, text).map((line) => `${name}: ${line.trim()}`),
      );
    });
    expect(uses).toEqual([]);
  });

  it('are imported by no example', () => {
    const dir = new URL('examples/', root);
    const uses = readdirSync(dir)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => {
        const text = readFileSync(new URL(name, dir), 'utf8');
        return [...aliases.keys()].flatMap((old) =>
          usesOf(old, text).map((line) => `${name}: ${line.trim()}`),
        );
      });
    expect(uses).toEqual([]);
  });

  it('are each announced under Deprecated in CHANGELOG.md, naming the current type', () => {
    const announced = deprecatedSections();
    const missing = [...aliases].filter(
      ([old, current]) => !announced.includes(`\`${old}\` → \`${current}\``),
    );
    expect(missing).toEqual([]);
  });
});
