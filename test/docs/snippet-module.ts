/**
 * A guide's snippet turned into a module that can be run: its imports stay at the top, the rest
 * becomes the body of `export default async function (scope)`, which first takes the names the
 * snippet assumes from `scope` and at the end returns what the snippet declared (so the runner can
 * close the servers, queues and clients it opened, and send a Worker's default export a request). The marker's `run with` replacements are made
 * first, and a `stand-in module` import points at `test/docs/stand-ins/`.
 */

import ts from 'typescript';
import { marked, ROOT, type Snippet } from '../helpers/doc-snippets';

/** The file under `test/docs/stand-ins/` that stands in for `module` when snippets run. */
export function standInPath(module: string): string {
  return `${ROOT}test/docs/stand-ins/${module.replace(/^@/, '').replace(/\//g, '-')}.ts`;
}

/** The snippet's code with its marker's replacements made; a replacement that matches nothing throws. */
export function runnableCode(snippet: Snippet): string {
  let code = snippet.code;
  for (const { from, to } of marked(snippet).substitutions) {
    if (!code.includes(from)) {
      throw new Error(`${snippet.file}:${snippet.line}: "run with \`${from}\`" matches nothing`);
    }
    code = code.split(from).join(to);
  }
  return code;
}

/** The names a binding pattern declares (`const { data: page, response }` declares two). */
function boundNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) =>
    ts.isOmittedExpression(element) ? [] : boundNames(element.name),
  );
}

/** The values a top-level statement declares (types declare none that can be returned). */
function declaredBy(statement: ts.Statement): string[] {
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d) => boundNames(d.name));
  }
  if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) {
    return [statement.name.text];
  }
  return [];
}

/** The statement's text without a leading `export` (a Next.js route's `export const POST`). */
function withoutExport(statement: ts.Statement, source: ts.SourceFile): string {
  const text = statement.getText(source);
  const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
  const exported = modifiers?.find((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  if (!exported) return text;
  return text.slice(exported.getEnd() - statement.getStart(source)).trimStart();
}

/**
 * The snippet as a runnable module, and the names it takes from its scope: those the marker
 * assumes, and those of `provided` (the names the runner can bind) a `run with` replacement uses.
 */
export function runnableModule(
  snippet: Snippet,
  provided: readonly string[],
): { source: string; names: string[] } {
  const mark = marked(snippet);
  const code = runnableCode(snippet);
  const parsed = ts.createSourceFile('snippet.ts', code, ts.ScriptTarget.Latest, true);
  const standIns = new Map(mark.standIns.map(({ module }) => [module, standInPath(module)]));
  const imports: string[] = [];
  const body: string[] = [];
  const declared: string[] = [];
  for (const statement of parsed.statements) {
    if (ts.isImportDeclaration(statement)) {
      const from = (statement.moduleSpecifier as ts.StringLiteral).text;
      const text = statement.getText(parsed);
      imports.push(standIns.has(from) ? text.replace(from, standIns.get(from)!) : text);
      continue;
    }
    // A Worker's `export default { fetch }` is kept as `defaultExport`, for the runner to send it a request.
    if (ts.isExportAssignment(statement) && !statement.isExportEquals) {
      body.push(`const defaultExport = ${statement.expression.getText(parsed)};`);
      declared.push('defaultExport');
      continue;
    }
    body.push(withoutExport(statement, parsed));
    declared.push(...declaredBy(statement));
  }
  const used = new Set(mark.names);
  for (const { to } of mark.substitutions) {
    for (const name of provided) if (new RegExp(`\\b${name}\\b`).test(to)) used.add(name);
  }
  // A name the snippet declares itself is its own, even where a replacement mentions it.
  const names = [...used].filter((name) => !declared.includes(name));
  const source = [
    ...imports,
    'export default async function run(scope: any): Promise<Record<string, unknown>> {',
    `  const { ${names.join(', ')} } = scope;`,
    ...body,
    `  return { ${declared.join(', ')} };`,
    '}',
    '',
  ].join('\n');
  return { source, names };
}
