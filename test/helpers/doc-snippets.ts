/**
 * The TypeScript snippets of the guides (`docs/*.md`) and the README, as a reader sees them: each
 * ```ts fence, with its file, the line it starts on, the section it sits in, and the marker a
 * guide may put on the line before it (`<!-- snippet: … -->`) to say how it is to be checked.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Snippet {
  /** `docs/webhooks.md`, `README.md`. */
  file: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  /** The heading above it. */
  section: string;
  /** The marker's words (`partial: …`, `run`), or `undefined` when it has none. */
  marker: string | undefined;
  code: string;
}

/** The Markdown files whose snippets are checked: every guide, and the README. */
export function documentedFiles(): string[] {
  const guides = readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return [...guides, 'README.md'];
}

/** Every ```ts snippet of `file` (relative to the repository's root), in order. */
export function snippetsOf(file: string): Snippet[] {
  const lines = readFileSync(`${ROOT}${file}`, 'utf8').split('\n');
  const snippets: Snippet[] = [];
  let section = '';
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (/^#{1,6} /.test(line)) section = line.replace(/^#+ /, '');
    if (!/^```(ts|typescript)\s*$/.test(line.trim())) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && lines[index]!.trim() !== '```'; index++) {
      body.push(lines[index]!);
    }
    const before = start > 0 ? lines[start - 1]!.trim() : '';
    const marker = /^<!--\s*snippet:\s*(.*?)\s*-->$/.exec(before)?.[1];
    snippets.push({ file, line: start + 1, section, marker, code: `${body.join('\n')}\n` });
  }
  return snippets;
}

/** The first snippet of `file` under the heading `section`. */
export function snippetIn(file: string, section: string): Snippet {
  const found = snippetsOf(file).find((snippet) => snippet.section === section);
  if (!found) throw new Error(`no ts snippet under "${section}" in ${file}`);
  return found;
}
