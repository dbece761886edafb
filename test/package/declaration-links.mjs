// The {@link} and @see of the installed package's declarations, as a partner's editor reads them: a
// hover shows a link live only where the checker resolves its name from the comment's own file
// (TypeScript's services build a link part with `getSymbolAtLocation` on the link's name; a name it
// cannot resolve is shown as plain text). The declarations are bundled, so a name in scope in src/
// may not be in the chunk its comment lands in. And a comment on a public declaration must not
// send a partner to a name no entry point exports. Run by scripts/test-runtimes.mjs inside the
// consumer project; checks itself first on a package with planted bad links; exits 1 naming each.
import { readdirSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const ts = createRequire(join(process.cwd(), 'package.json'))('typescript');

const options = {
  strict: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  types: ['node'],
  skipLibCheck: true,
  noEmit: true,
};

/** Every declaration that opens a link or names a @see target, with the name it resolves. */
function linksOf(file) {
  const found = [];
  const visit = (node) => {
    const link =
      ts.isJSDocLink(node) ||
      ts.isJSDocLinkCode(node) ||
      ts.isJSDocLinkPlain(node) ||
      ts.isJSDocNameReference(node);
    // A web address (`{@link https://…}`) is a link of its own, for the editor to open.
    const web = link && /^\w+:\/\//.test(`${node.name?.getText(file) ?? ''}${node.text ?? ''}`);
    if (link && !web) found.push(node);
    ts.forEachChild(node, visit);
    for (const doc of node.jsDoc ?? []) visit(doc);
  };
  visit(file);
  return found;
}

/** The statement at the top of `file` that holds `node`. */
function topStatement(node) {
  let at = node;
  while (at.parent && !ts.isSourceFile(at.parent)) at = at.parent;
  return at;
}

/** The symbol a top-level statement declares (its first, for a variable statement). */
function declared(checker, statement) {
  const name = ts.isVariableStatement(statement)
    ? statement.declarationList.declarations[0]?.name
    : statement.name;
  return name ? checker.getSymbolAtLocation(name) : undefined;
}

/**
 * What is wrong with the links of the declaration files under `packageDir` (the package's own, not
 * its dependencies'), `entries` being the files its `exports` map names: one line per link that
 * does not resolve, or that leads from a public declaration to one no entry exports.
 */
function brokenLinks(program, packageDir, entries) {
  const checker = program.getTypeChecker();
  const target = (symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const exported = new Set(
    entries.flatMap((entry) => {
      const module = checker.getSymbolAtLocation(program.getSourceFile(entry));
      return module ? checker.getExportsOfModule(module).map(target) : [];
    }),
  );
  const isPublic = (declaration) => {
    if (!declaration.getSourceFile().fileName.startsWith(packageDir)) return true;
    if (ts.isParameter(declaration) || ts.isTypeParameterDeclaration(declaration)) return true;
    const symbol = declared(checker, topStatement(declaration));
    return symbol !== undefined && exported.has(target(symbol));
  };
  const problems = [];
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(packageDir)) continue;
    for (const link of linksOf(file)) {
      const { line } = file.getLineAndCharacterOfPosition(link.getStart(file));
      const where = `${file.fileName.slice(packageDir.length + 1)}:${line + 1}`;
      const symbol = link.name && checker.getSymbolAtLocation(link.name);
      const declaration = symbol && target(symbol).declarations?.[0];
      if (!declaration) {
        problems.push(`${where}: ${link.getText(file)} does not resolve there`);
        continue;
      }
      // A qualified name is seen by its first part (`PartnerClient.request`, inherited or not).
      let first = link.name;
      while (ts.isQualifiedName(first) || ts.isJSDocMemberName(first)) first = first.left;
      const head = checker.getSymbolAtLocation(first);
      const headDeclaration = head && target(head).declarations?.[0];
      const hostPublic = isPublic(topStatement(link));
      const seen = isPublic(declaration) || (headDeclaration && isPublic(headDeclaration));
      if (hostPublic && !seen) {
        problems.push(`${where}: ${link.getText(file)} names what no entry point exports`);
      }
    }
  }
  return problems;
}

/** A program over `files` (name to text) in memory, beside the real file system. */
function programInMemory(files) {
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name in files
      ? ts.createSourceFile(name, files[name], language, true)
      : getSourceFile(name, language, ...rest);
  host.fileExists = (name) => name in files || fileExists(name);
  const dirs = new Set(Object.keys(files).map((name) => dirname(name)));
  host.directoryExists = (name) => dirs.has(name) || ts.sys.directoryExists(name);
  host.readFile = (name) => files[name] ?? ts.sys.readFile(name);
  return ts.createProgram(Object.keys(files), options, host);
}

const missed = [];

// The check itself: a link out of scope, one to an unexported name, and the good ones beside them.
{
  const dir = join(process.cwd(), 'planted-package');
  const entry = join(dir, 'index.d.ts');
  const chunk = join(dir, 'chunk-a.d.ts');
  const files = {
    [chunk]: [
      'declare class Kept { size: number; }',
      'declare function internal(): void;',
      '/** {@link Kept.size}, {@link Shown} (out of scope here), {@link internal}. */',
      'declare class Chunked { kept: Kept; }',
      'export { Chunked as C, Kept as K, internal as i };',
    ].join('\n'),
    [entry]: [
      "import { C as Chunked, K as Kept } from './chunk-a.js';",
      '/** {@link Kept}, {@link Chunked}, {@link Shown.run}, {@link AbortSignal}. */',
      'export declare class Shown { run(): void; }',
      'export { Chunked, Kept };',
    ].join('\n'),
  };
  const found = brokenLinks(programInMemory(files), dir, [entry]);
  const expected = [
    'chunk-a.d.ts:3: {@link Shown} does not resolve there',
    'chunk-a.d.ts:3: {@link internal} names what no entry point exports',
  ];
  if (JSON.stringify(found) !== JSON.stringify(expected)) {
    missed.push(`the check misjudges planted links:\n    found: ${found.join('\n           ')}`);
  }
}

// The installed package: every declaration file of dist/, its entries those of `exports`.
{
  const packageDir = realpathSync(join(process.cwd(), 'node_modules', 'partner-sdk'));
  const manifest = createRequire(join(packageDir, 'package.json'))('./package.json');
  const entries = Object.values(manifest.exports)
    .filter((conditions) => typeof conditions === 'object')
    .flatMap((conditions) => Object.values(conditions).filter((files) => files.types))
    .map(({ types }) => join(packageDir, types));
  const dist = dirname(entries[0]);
  const declarations = readdirSync(dist)
    .filter((name) => /\.d\.c?ts$/.test(name))
    .map((name) => join(dist, name));
  const program = ts.createProgram(declarations, options);
  const links = program
    .getSourceFiles()
    .filter((file) => file.fileName.startsWith(dist))
    .flatMap(linksOf);
  if (links.length < 200) missed.push(`only ${links.length} links found in the declarations`);
  missed.push(...brokenLinks(program, dist, entries));
}

if (missed.length) {
  console.error(missed.join('\n'));
  process.exit(1);
}
console.log('every {@link} of the declarations resolves where it is written, to a public name');
