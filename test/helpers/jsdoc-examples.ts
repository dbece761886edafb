/**
 * The `@example` blocks of partner-sdk's public API, as a partner meets them in the IDE: every
 * ```ts fence of an `@example` on what the package's entry points export (the entry points of
 * `typedoc.json`, each named by its specifier in `tsconfig.json`'s `paths`), on the members of
 * the classes, interfaces and object types among them (inherited members included), and on each
 * entry module's own comment. Private, `#private` and `@internal` members are left out, as typedoc
 * leaves them out of the reference. Each block keeps the symbol it documents, its file and the
 * line of its opening fence.
 */

import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { ROOT } from './doc-snippets';

export interface JsdocExample {
  /** What it documents: `Refunds.request`, `BulkOperation.key`, or the module's name. */
  symbol: string;
  /** The entry point that exports it: `partner-sdk/bulk`. */
  entry: string;
  /** `src/bulk/file-journal.ts`. */
  file: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  code: string;
  /** For a member of an exported class, interface or object type: the two names. */
  member: { owner: string; name: string } | undefined;
}

/** The entry points typedoc documents, each with the specifier a partner imports. */
export function entryPoints(): { specifier: string; file: string }[] {
  const typedoc = JSON.parse(readFileSync(`${ROOT}typedoc.json`, 'utf8')) as {
    entryPoints: string[];
  };
  const paths = compilerOptions().paths ?? {};
  return typedoc.entryPoints.map((file) => {
    const specifier = Object.keys(paths).find((name) =>
      paths[name]!.some((target) => target.replace(/^\.\//, '') === file),
    );
    if (!specifier) throw new Error(`${file} is not named in tsconfig.json's paths`);
    return { specifier, file: `${ROOT}${file}` };
  });
}

/** The project's compiler options (`tsconfig.json`), its `paths` naming the package's entries. */
export function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(`${ROOT}tsconfig.json`, ts.sys.readFile).config;
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options;
}

/**
 * A compiler host that parses each file once and serves `extra` files from memory, so a second
 * program (the examples beside the SDK) reuses the first one's parsed and bound source files.
 */
export function cachingHost(
  options: ts.CompilerOptions,
  extra: Map<string, string>,
): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const parsed = new Map<string, ts.SourceFile>();
  return {
    ...host,
    fileExists: (name) => extra.has(name) || host.fileExists(name),
    readFile: (name) => extra.get(name) ?? host.readFile(name),
    getSourceFile(name, language) {
      const text = extra.get(name);
      if (text !== undefined) return ts.createSourceFile(name, text, language, true);
      if (!parsed.has(name)) {
        const file = host.getSourceFile(name, language);
        if (file) parsed.set(name, file);
      }
      return parsed.get(name);
    },
  };
}

/** Whether typedoc leaves the declaration out of the reference (private, `#private`, `@internal`). */
function hidden(node: ts.Node): boolean {
  const name = (node as { name?: ts.Node }).name;
  if (name && ts.isPrivateIdentifier(name)) return true;
  if (ts.getCombinedModifierFlags(node as ts.Declaration) & ts.ModifierFlags.Private) return true;
  return ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'internal');
}

/**
 * The ```ts blocks of the `@example` tags of the comment between `pos` and `end`, each with the
 * line of its opening fence. A tag runs to the next tag or the comment's end.
 */
function examplesIn(
  file: ts.SourceFile,
  pos: number,
  end: number,
): { line: number; code: string }[] {
  const first = file.getLineAndCharacterOfPosition(pos).line;
  const lines = file.text
    .slice(file.getPositionOfLineAndCharacter(first, 0), end)
    .split('\n')
    .map((line) => line.replace(/^\s*(\/\*\*|\*\/|\*)\s?/, ''));
  const blocks: { line: number; code: string }[] = [];
  let inExample = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (/^@\w/.test(line.trim())) inExample = /^@example\b/.test(line.trim());
    if (!inExample || !/^```(ts|typescript)\s*$/.test(line.trim())) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && lines[index]!.trim() !== '```'; index++) {
      body.push(lines[index]!);
    }
    blocks.push({ line: first + start + 1, code: `${body.join('\n')}\n` });
  }
  return blocks;
}

/** A member's name as a reader writes it (`request`, `constructor`); none for a signature. */
function memberName(node: ts.Node): string | undefined {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const name = (node as { name?: ts.Node }).name;
  if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name))) return name.text;
  return undefined;
}

/** The JSDoc comments written on `node` itself (for a variable, on its statement). */
function docsOf(node: ts.Node): ts.JSDoc[] {
  return ts.getJSDocCommentsAndTags(node).filter((doc): doc is ts.JSDoc => ts.isJSDoc(doc));
}

interface Visit {
  entry: string;
  symbol: string;
  member: JsdocExample['member'];
}

/** Walks the public surface of a program's entry points and gathers their examples. */
export class ExampleCollector {
  readonly examples: JsdocExample[] = [];
  /** The public names of each entry point, each with whether it is a value (or only a type). */
  readonly exportsOf = new Map<string, Map<string, boolean>>();
  readonly #seen = new Set<string>();
  readonly #visited = new Set<ts.Symbol>();
  readonly #checker: ts.TypeChecker;

  readonly program: ts.Program;

  constructor(program: ts.Program) {
    this.program = program;
    this.#checker = program.getTypeChecker();
  }

  /** Gathers every example the entry points' exports carry, entry by entry. */
  collect(entries: { specifier: string; file: string }[]): JsdocExample[] {
    for (const { specifier, file } of entries) {
      const source = this.program.getSourceFile(file);
      if (!source) throw new Error(`${file} is not in the program`);
      this.#moduleComment(source, specifier);
      const moduleSymbol = this.#checker.getSymbolAtLocation(source)!;
      const exported = this.#checker.getExportsOfModule(moduleSymbol);
      const names = exported.map((symbol) => [symbol.name, this.#isValue(symbol)] as const);
      this.exportsOf.set(specifier, new Map(names));
      for (const symbol of exported) {
        this.#symbol(symbol, { entry: specifier, symbol: symbol.name, member: undefined });
      }
    }
    return this.examples;
  }

  /** The module's own comment: the file's first comment, when it says `@module`. */
  #moduleComment(source: ts.SourceFile, entry: string): void {
    const first = ts.getLeadingCommentRanges(source.text, 0)?.[0];
    if (!first || !/@module\b/.test(source.text.slice(first.pos, first.end))) return;
    this.#comment(source, first.pos, first.end, { entry, symbol: entry, member: undefined });
  }

  #symbol(symbol: ts.Symbol, visit: Visit): void {
    const target =
      symbol.flags & ts.SymbolFlags.Alias ? this.#checker.getAliasedSymbol(symbol) : symbol;
    if (this.#visited.has(target)) return;
    this.#visited.add(target);
    for (const declaration of target.declarations ?? []) {
      if (!this.#ours(declaration) || hidden(declaration)) continue;
      this.#declaration(declaration, visit);
    }
    if (target.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface)) {
      // Members an exported class or interface inherits, from a base typedoc shows them under.
      const type = this.#checker.getDeclaredTypeOfSymbol(target);
      for (const member of this.#checker.getPropertiesOfType(type)) {
        const symbol = `${visit.symbol}.${member.name}`;
        this.#symbol(member, {
          ...visit,
          symbol,
          member: { owner: visit.symbol, name: member.name },
        });
      }
    }
  }

  #isValue(symbol: ts.Symbol): boolean {
    const typeOnly = symbol.declarations?.some(
      (d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly),
    );
    if (typeOnly) return false;
    const target =
      symbol.flags & ts.SymbolFlags.Alias ? this.#checker.getAliasedSymbol(symbol) : symbol;
    return (target.flags & ts.SymbolFlags.Value) !== 0;
  }

  #ours(node: ts.Node): boolean {
    const file = node.getSourceFile().fileName;
    return file.startsWith(`${ROOT}src/`) && !file.endsWith('.d.ts');
  }

  /** A declaration's examples, then its members' (a class's, an interface's, an object type's). */
  #declaration(node: ts.Node, visit: Visit): void {
    const source = node.getSourceFile();
    for (const doc of docsOf(node)) this.#comment(source, doc.pos, doc.end, visit);
    const members = (current: ts.Node): void => {
      ts.forEachChild(current, (child) => {
        // Bodies hold no public declarations; JSDoc nodes are read through their owner.
        if (ts.isBlock(child) || ts.isJSDoc(child)) return;
        const isMember =
          ts.isClassElement(child) ||
          ts.isTypeElement(child) ||
          ts.isObjectLiteralElementLike(child);
        if (!isMember) {
          members(child);
          return;
        }
        if (hidden(child)) return;
        const name = memberName(child);
        // A call or index signature is documented as its owner.
        if (name === undefined) return this.#declaration(child, visit);
        const symbol = (child as { name?: ts.Node }).name;
        const resolved = symbol && this.#checker.getSymbolAtLocation(symbol);
        if (resolved) this.#visited.add(resolved);
        this.#declaration(child, {
          ...visit,
          symbol: `${visit.symbol}.${name}`,
          member: { owner: visit.symbol, name },
        });
      });
    };
    members(node);
  }

  #comment(source: ts.SourceFile, pos: number, end: number, visit: Visit): void {
    const file = source.fileName.slice(ROOT.length);
    for (const block of examplesIn(source, pos, end)) {
      const id = `${file}:${block.line}`;
      if (this.#seen.has(id)) continue;
      this.#seen.add(id);
      this.examples.push({ ...visit, file, ...block });
    }
  }
}

/** The identifiers a block uses but does not declare: what its reader is assumed to have. */
export function freeNames(code: string): string[] {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, true);
  const declared = new Set<string>();
  const used = new Set<string>();
  const bind = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) declared.add(name.text);
    else
      for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && isReference(node)) used.add(node.text);
    if (ts.isVariableDeclaration(node) || ts.isParameter(node)) bind(node.name);
    else if (
      (ts.isFunctionLike(node) ||
        ts.isClassLike(node) ||
        ts.isInterfaceDeclaration(node) ||
        ts.isTypeAliasDeclaration(node) ||
        ts.isEnumDeclaration(node) ||
        ts.isTypeParameterDeclaration(node) ||
        ts.isImportClause(node) ||
        ts.isNamespaceImport(node) ||
        ts.isImportSpecifier(node) ||
        ts.isImportEqualsDeclaration(node)) &&
      node.name &&
      ts.isIdentifier(node.name)
    ) {
      declared.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...used].filter((name) => !declared.has(name));
}

/** Whether an identifier names something in scope (not a property, a key or a label). */
function isReference(id: ts.Identifier): boolean {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent) || ts.isQualifiedName(parent)) {
    return ts.isPropertyAccessExpression(parent) ? parent.expression === id : parent.left === id;
  }
  if (ts.isBindingElement(parent) || ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) {
    return parent.propertyName !== id;
  }
  if (ts.isImportTypeNode(parent) || ts.isMetaProperty(parent)) return false;
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return false;
  const named = parent as { name?: ts.Node };
  const isKey =
    ts.isPropertyAssignment(parent) ||
    ts.isClassElement(parent) ||
    ts.isTypeElement(parent) ||
    ts.isEnumMember(parent) ||
    ts.isNamedTupleMember(parent);
  return !(isKey && named.name === id);
}

/** The identifiers used as `name.member` in a block: the receivers of a documented member. */
export function receiversOf(code: string, member: string): string[] {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, true);
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isPropertyAccessExpression(node) &&
      node.name.text === member &&
      ts.isIdentifier(node.expression)
    ) {
      found.add(node.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found];
}

/** The public API's examples, and the program they were read from (to check them against it). */
export interface PublicExamples {
  examples: JsdocExample[];
  /** The public names of each entry point, each with whether it is a value. */
  exportsOf: Map<string, Map<string, boolean>>;
  entries: { specifier: string; file: string }[];
  options: ts.CompilerOptions;
  program: ts.Program;
  /** Files served from memory to the programs made with `host`. */
  files: Map<string, string>;
  host: ts.CompilerHost;
}

/** Reads the examples of every entry point of `typedoc.json` from one program of the SDK. */
export function publicExamples(): PublicExamples {
  const options = compilerOptions();
  const files = new Map<string, string>();
  const host = cachingHost(options, files);
  const entries = entryPoints();
  const program = ts.createProgram(
    entries.map(({ file }) => file),
    options,
    host,
  );
  const collector = new ExampleCollector(program);
  const examples = collector.collect(entries);
  return { examples, exportsOf: collector.exportsOf, entries, options, program, files, host };
}
