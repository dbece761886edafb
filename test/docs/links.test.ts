/**
 * Every relative link of the Markdown files reaches a file that exists and, with an anchor, a
 * heading of it, as GitHub slugs headings and as typedoc slugs them for the docs site (the two
 * differ on dashes and quotes: a link must work on both). Every `{@link}` of the TSDoc names what
 * it says, and TypeScript finds it from where the link is written: an editor's hover follows it as
 * the docs site does.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const text = (path: string) => readFileSync(new URL(path, root), 'utf8');

const MARKDOWN = [
  'README.md',
  'SECURITY.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  'packages/cli/README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchors: lower case, punctuation gone, each space a dash; repeats numbered. */
function githubSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** Typedoc's (its `Slugger`): punctuation and the general-punctuation block gone, one `--` joined. */
function typedocSlug(heading: string): string {
  return heading
    .trim()
    .replace(/[\u2000-\u206F\u2E00-\u2E7F\\'!"#$%&()*+,./:;<=>?@[\]^`{|}~]/g, '')
    .replace(/\s/g, '-')
    .replace(/--+/, '-')
    .toLowerCase();
}

function anchorsOf(markdown: string, slug: (heading: string) => string): Set<string> {
  const seen = new Map<string, number>();
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, heading] of prose.matchAll(/^#{1,6} (.+)$/gm)) {
    // A heading's code spans and links read as their text.
    const plain = (heading as string).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
    const base = slug(plain);
    const count = seen.get(base);
    seen.set(base, (count ?? -1) + 1);
    if (count !== undefined) seen.set(`${base}-${count + 1}`, 0);
  }
  return new Set(seen.keys());
}

type Link = { from: string; target: string };

function relativeLinks(file: string): Link[] {
  const prose = text(file).replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => ({ from: file, target }));
}

function brokenLink({ from, target }: Link): string | undefined {
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const file = path === '' ? from : new URL(path, new URL(from, root)).pathname;
  const url = path === '' ? new URL(from, root) : new URL(`file://${file}`);
  if (!existsSync(url)) return `${from}: ${target}: no such file`;
  if (anchor === undefined) return undefined;
  const markdown = readFileSync(url, 'utf8');
  const onGitHub = anchorsOf(markdown, githubSlug).has(anchor);
  const onSite = anchorsOf(markdown, typedocSlug).has(anchor);
  if (onGitHub && onSite) return undefined;
  return `${from}: ${target}: no such heading (${onGitHub ? 'docs site' : 'GitHub'})`;
}

describe('relative links of the Markdown files', () => {
  const links = MARKDOWN.flatMap(relativeLinks);

  it('are found (the guides link to one another)', () => {
    expect(links.length).toBeGreaterThan(40);
    expect(links.some((link) => link.target.includes('#'))).toBe(true);
  });

  it('reach a file that exists and a heading it has', () => {
    expect(links.map(brokenLink).filter(Boolean)).toEqual([]);
  });

  it('would catch a missing file or heading', () => {
    expect(brokenLink({ from: 'README.md', target: 'docs/no-such-guide.md' })).toBeDefined();
    expect(
      brokenLink({ from: 'README.md', target: 'docs/webhooks.md#no-such-heading' }),
    ).toBeDefined();
    expect(brokenLink({ from: 'README.md', target: '#no-such-heading' })).toBeDefined();
    expect(
      brokenLink({ from: 'docs/webhooks.md', target: './testing.md#webhooks' }),
    ).toBeUndefined();
  });

  it('slug headings as GitHub and typedoc do', () => {
    const headings = '## The journal: resume without duplicates\n## A — b\n## A — b\n';
    expect([...anchorsOf(headings, githubSlug)]).toEqual([
      'the-journal-resume-without-duplicates',
      'a--b',
      'a--b-1',
    ]);
    expect([...anchorsOf(headings, typedocSlug)]).toEqual([
      'the-journal-resume-without-duplicates',
      'a-b',
      'a-b-1',
    ]);
  });
});

function sourceProgram(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    new URL('tsconfig.json', root).pathname,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  const src = new URL('src/', root).pathname;
  const files = (config?.fileNames ?? []).filter((file) => file.startsWith(src));
  return ts.createProgram(files, config?.options ?? {});
}

type TsdocLink = { where: string; text: string; resolved: boolean };

function tsdocLinks(program: ts.Program): TsdocLink[] {
  const checker = program.getTypeChecker();
  const src = new URL('src/', root).pathname;
  const found: TsdocLink[] = [];
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(src)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isJSDocLink(node) || ts.isJSDocLinkCode(node) || ts.isJSDocLinkPlain(node)) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
        const resolved = node.name !== undefined && !!checker.getSymbolAtLocation(node.name);
        const where = `${file.fileName.slice(src.length - 4)}:${line + 1}`;
        found.push({ where, text: node.getText(file), resolved });
      }
      ts.forEachChild(node, visit);
      for (const doc of (node as { jsDoc?: ts.Node[] }).jsDoc ?? []) visit(doc);
    };
    visit(file);
  }
  return found;
}

/** A program of one file, `code`, written as if in src/ (where the links are looked for). */
function programOf(code: string): ts.Program {
  const fileName = new URL('src/links-check.ts', root).pathname;
  const host = ts.createCompilerHost({});
  const read = host.getSourceFile;
  host.getSourceFile = (name, language, ...rest) =>
    name === fileName ? ts.createSourceFile(name, code, language) : read(name, language, ...rest);
  const exists = host.fileExists;
  host.fileExists = (name) => name === fileName || exists(name);
  return ts.createProgram([fileName], { noEmit: true }, host);
}

describe('the {@link} tags of the TSDoc', () => {
  const program = sourceProgram();
  const links = tsdocLinks(program);

  it('are found', () => {
    expect(links.length).toBeGreaterThan(200);
  });

  it('are told unresolved when out of scope, or naming a member their target lacks', () => {
    const code = [
      '/** {@link Shown}, {@link Shown.size}, {@link Elsewhere}, {@link Shown.missing}. */',
      'export class Shown { size = 1; }',
    ].join('\n');
    const resolved = tsdocLinks(programOf(code)).map((link) => [link.text, link.resolved]);
    expect(resolved).toEqual([
      ['{@link Shown}', true],
      ['{@link Shown.size}', true],
      ['{@link Elsewhere}', false],
      ['{@link Shown.missing}', false],
    ]);
  });

  // Typedoc resolves a link as TypeScript does first (its `useTsLinkResolution`), then by its own
  // declaration references; an editor's hover only as TypeScript does: a name out of scope shows as
  // plain text there. So each is in scope where written, by an `import type` if need be.
  it('each resolve where they are written, as an editor resolves them', () => {
    const unresolved = links.filter((link) => !link.resolved);
    expect(unresolved.map((link) => `${link.where}: ${link.text}`)).toEqual([]);
  });
});
