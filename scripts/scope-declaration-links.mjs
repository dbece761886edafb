// Run by `npm run build` after tsup: brings into scope, in each bundled declaration file, the public
// names its {@link} tags point at. An editor resolves a link's name from the file the comment is in,
// and TypeScript has no link form naming a module (`{@link import('x').Name}` is not read); the
// dts bundler keeps an import only where a declaration uses it, so a link's `import type` of src/ is
// dropped, and a shared chunk's comment may name what another file declares. For each such name an
// entry point exports, the file gets an `import type` of it from the file that declares it. A link
// to a name no entry point exports is reported, not fixed: its words are to change in src/.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = Object.values(manifest.exports)
  .filter((conditions) => typeof conditions === 'object')
  .flatMap((conditions) => Object.values(conditions).filter((files) => files.types))
  .map(({ types }) => join(root, types));
const declarations = readdirSync(dist)
  .filter((name) => /\.d\.c?ts$/.test(name))
  .map((name) => join(dist, name));

const program = ts.createProgram(declarations, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  skipLibCheck: true,
  noEmit: true,
});
const checker = program.getTypeChecker();
const target = (symbol) =>
  symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
const exportsOf = (file) => {
  const module = checker.getSymbolAtLocation(program.getSourceFile(file));
  return module ? checker.getExportsOfModule(module) : [];
};

/** The first identifier of each link of `file` that does not resolve there (`A` of `A.b`). */
function unresolvedNames(file) {
  const names = new Set();
  const visit = (node) => {
    const link = ts.isJSDocLink(node) || ts.isJSDocLinkCode(node) || ts.isJSDocLinkPlain(node);
    if ((link || ts.isJSDocNameReference(node)) && node.name) {
      let first = node.name;
      while (ts.isQualifiedName(first) || ts.isJSDocMemberName(first)) first = first.left;
      const web = /^\w+:\/\//.test(`${first.text}${node.text ?? ''}`);
      if (!web && !checker.getSymbolAtLocation(first)) names.add(first.text);
    }
    ts.forEachChild(node, visit);
    for (const doc of node.jsDoc ?? []) visit(doc);
  };
  visit(file);
  return names;
}

/** Where `name` is declared, among the entries of `file`'s format, and what that file exports it as. */
function declarationOf(name, file) {
  const format = file.endsWith('.d.cts') ? '.d.cts' : '.d.ts';
  for (const entry of entries.filter((path) => path.endsWith(format))) {
    const exported = exportsOf(entry).find((symbol) => symbol.name === name);
    if (!exported) continue;
    const symbol = target(exported);
    const at = symbol.declarations?.[0]?.getSourceFile().fileName;
    const as = at && exportsOf(at).find((other) => target(other) === symbol)?.name;
    if (as) return { at, as };
  }
  return undefined;
}

const unknown = [];
for (const path of declarations) {
  const imports = new Map();
  for (const name of unresolvedNames(program.getSourceFile(path))) {
    const found = declarationOf(name, path);
    if (!found || found.at === path) {
      unknown.push(`${basename(path)}: {@link ${name}}`);
      continue;
    }
    const from = `./${basename(found.at).replace(/\.d\.(c?)ts$/, '.$1js')}`;
    imports.set(from, [
      ...(imports.get(from) ?? []),
      found.as === name ? name : `${found.as} as ${name}`,
    ]);
  }
  if (imports.size === 0) continue;
  const lines = [...imports].map(
    ([from, names]) => `import type { ${names.join(', ')} } from '${from}';\n`,
  );
  writeFileSync(path, `${lines.join('')}${readFileSync(path, 'utf8')}`);
}
if (unknown.length) {
  console.warn(
    `links to names no entry point exports (say it in words in src/):\n${unknown.join('\n')}`,
  );
}
