#!/usr/bin/env node
/**
 * Keeps the code small enough to read (CONTRIBUTING.md, "Size rules"): fails when a function in
 * `src/` or `packages/cli/src/` is longer than MAX_FUNCTION_LINES lines, or a file there longer
 * than MAX_FILE_LINES. Functions are found with the TypeScript compiler, and a function's lines
 * include those of the functions nested in it: a factory of closures is read whole, so it is
 * measured whole (as ESLint's max-lines-per-function does). Schema declarations (`src/schemas/`)
 * and the testing kit's wire fixtures (`src/testing/fixtures/`) are data, not logic, and are not
 * measured.
 *
 * It also holds `src/core/` to at most MAX_CORE_MODULES modules or folders at its top level, so
 * that a reader can name each of its concerns (CONTRIBUTING.md, "Where a behaviour lives in `core/`").
 *
 * Usage: node scripts/check-sizes.mjs [--report]   (--report lists the longest functions too)
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

// A function a reader takes in at once; past it, a function is two waiting to be split.
const MAX_FUNCTION_LINES = 60;
// A file a reader holds whole; past it, a file is two with one job each waiting to be split.
const MAX_FILE_LINES = 300;
// Concerns a reader can name and hold apart; a new file beside them belongs in one of them.
const MAX_CORE_MODULES = 12;
const ROOT = new URL('..', import.meta.url).pathname;
const EXEMPT = /^src\/(schemas|testing\/fixtures)\//;

/**
 * Known offenders, each waiting for its split: empty, and meant to stay so. An entry is
 * `file:function` for a long function, or the file itself for a long file.
 */
const KNOWN = new Set([]);

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

function functionName(node, source) {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) {
    return parent.name.getText(source);
  }
  return '(anonymous)';
}

const isFunction = (node) => ts.isFunctionLike(node) && 'body' in node && node.body !== undefined;

/** Every function of `file` with its length in lines, the functions nested in it included. */
function functionsOf(file) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const lineOf = (position) => source.getLineAndCharacterOfPosition(position).line;
  const span = (node) => lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
  const visit = (node) => {
    if (isFunction(node)) {
      found.push({
        name: functionName(node, source),
        line: lineOf(node.getStart(source)) + 1,
        lines: span(node),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { functions: found, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) };
}

const problems = [];
const all = [];
// The CLI's functions keep the same rule as the SDK's.
for (const path of [
  ...sourceFiles(join(ROOT, 'src')),
  ...sourceFiles(join(ROOT, 'packages/cli/src')),
]) {
  const file = relative(ROOT, path);
  if (EXEMPT.test(file)) continue;
  const { functions, lines } = functionsOf(path);
  if (lines > MAX_FILE_LINES && !KNOWN.has(file)) {
    problems.push(`${file}: ${lines} lines (a file has at most ${MAX_FILE_LINES})`);
  }
  for (const fn of functions) {
    all.push({ file, ...fn });
    if (fn.lines > MAX_FUNCTION_LINES && !KNOWN.has(`${file}:${fn.name}`)) {
      problems.push(
        `${file}:${fn.line}: ${fn.name} is ${fn.lines} lines (at most ${MAX_FUNCTION_LINES})`,
      );
    }
  }
}

const coreModules = readdirSync(join(ROOT, 'src/core'));
if (coreModules.length > MAX_CORE_MODULES) {
  problems.push(
    `src/core: ${coreModules.length} modules or folders at its top level (at most ${MAX_CORE_MODULES}): put the new file in the folder of its concern`,
  );
}

if (process.argv.includes('--report')) {
  for (const fn of all.sort((a, b) => b.lines - a.lines).slice(0, 10)) {
    console.log(`${String(fn.lines).padStart(4)}  ${fn.file}:${fn.line} ${fn.name}`);
  }
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(
    `\n${problems.length} size problem(s): split them (CONTRIBUTING.md, "Size rules").`,
  );
  process.exit(1);
}
console.log('sizes: every function and file within bounds');
