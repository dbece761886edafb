import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(root, dir, f));
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

describe("the kit's validation and the SDK's request validation stay independent", () => {
  it('no file of the kit imports the SDK schemas', () => {
    const offenders = sources('src/testing').flatMap((file) =>
      importsOf(file)
        .filter((spec) => /(^|\/)schemas(\/|$)/.test(spec))
        .map((spec) => `${relative(root, file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it("no schema, and no test of the SDK's request validation, imports the kit's validation", () => {
    const files = [...sources('src/schemas'), ...sources('test/schemas')];
    const offenders = files.flatMap((file) =>
      importsOf(file)
        .filter((spec) => /testing\/validation/.test(spec))
        .map((spec) => `${relative(root, file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
