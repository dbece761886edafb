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

/** A `run with` clause: a piece of the snippet replaced, only when it is run, and why. */
export interface Substitution {
  /** The text of the snippet replaced (each occurrence); it must occur. */
  from: string;
  /** What runs in its place; it may name what the runner provides (`port`, `tempFile`…). */
  to: string;
  why: string;
}

/** What a snippet's marker says about how it is checked and run. */
export interface Marked {
  /** Names the prose around the snippet defines (`assumes a, b`). */
  names: string[];
  /** Packages it imports that this repository does not install (`untyped module <package>`). */
  modules: string[];
  /** Packages replaced by a stand-in under `test/docs/stand-ins/` when run (`stand-in module <package>: why`). */
  standIns: { module: string; why: string }[];
  /** Pieces replaced when run (`run with \`from\` as \`to\`: why`). */
  substitutions: Substitution[];
}

/**
 * A marker's clauses, separated by `;`: `assumes a, b`; `untyped module <package>`; `stand-in
 * module <package>: why`; and `run with \`from\` as \`to\`: why` (what cannot run as written on a
 * test machine: a fixed port, a file in the working directory, an id of the partner's own). Each
 * replacement says why, so none is silent.
 */
export function marked(snippet: Snippet): Marked {
  const result: Marked = { names: [], modules: [], standIns: [], substitutions: [] };
  for (const clause of (snippet.marker ?? '').split(/;\s+/).map((part) => part.trim())) {
    if (clause === '') continue;
    const names = /^assumes\s+(.+)$/.exec(clause)?.[1];
    const module = /^untyped module\s+(\S+)$/.exec(clause)?.[1];
    const standIn = /^stand-in module\s+(\S+):\s*(\S.*)$/.exec(clause);
    const run = /^run with `([^`]+)` as `([^`]+)`:\s*(\S.*)$/.exec(clause);
    if (names) result.names.push(...names.split(',').map((name) => name.trim()));
    else if (module) result.modules.push(module);
    else if (standIn) result.standIns.push({ module: standIn[1]!, why: standIn[2]! });
    else if (run) result.substitutions.push({ from: run[1]!, to: run[2]!, why: run[3]! });
    else throw new Error(`${snippet.file}:${snippet.line}: unknown marker "${clause}"`);
  }
  return result;
}
