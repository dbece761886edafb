// Reads the TSDoc the OpenAPI document reuses as descriptions, with the TypeScript compiler's
// parser (no type checking): the interfaces and type aliases of src/schemas/ (each field's note),
// and the methods of src/resources/ (what each call does, its parameters, whether it sends a call).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** The text of a node's doc comment, up to its first tag (`@example`, `@throws`...). */
function docText(node) {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const last = docs.at(-1);
  const text = last ? ts.getTextOfJSDocComment(last.comment) : undefined;
  return (
    text
      ?.replace(
        /\{@link ([^}|\s]+)(?:\s*\|\s*([^}]+))?\}/g,
        (_m, target, label) => `\`${label ?? target}\``,
      )
      .trim() || undefined
  );
}

function parse(file) {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

function tsFiles(dir) {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => join(dir, name));
}

/**
 * The values an `OpenEnum<…>` in the type node `type` names (`OpenEnum<'pix' | 'bank'> | null`),
 * through the type aliases of `aliases`: the spec's known values of a set the SDK keeps open,
 * which its zod schema does not hold (any string passes). None where no `OpenEnum` is found.
 */
function openEnumValues(type, aliases, inside = false) {
  if (!type) return [];
  if (ts.isUnionTypeNode(type))
    return type.types.flatMap((t) => openEnumValues(t, aliases, inside));
  if (ts.isParenthesizedTypeNode(type)) return openEnumValues(type.type, aliases, inside);
  if (ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal)) {
    return inside ? [type.literal.text] : [];
  }
  if (!ts.isTypeReferenceNode(type)) return [];
  const name = type.typeName.getText();
  if (name === 'OpenEnum') return openEnumValues(type.typeArguments?.[0], aliases, true);
  return openEnumValues(aliases[name], aliases, inside);
}

/**
 * Each documented interface or type alias of `dir` by name: its description, its fields' (an
 * interface's own members and those of the interfaces it extends, read by name; a union's, those
 * of its members), and the known values of its fields typed as open sets (`openEnums`).
 */
export function typeDocs(dir) {
  const types = {};
  const bases = {};
  const statements = tsFiles(dir).flatMap((file) => parse(file).statements);
  const aliases = Object.fromEntries(
    statements.filter(ts.isTypeAliasDeclaration).map((node) => [node.name.text, node.type]),
  );
  for (const node of statements) {
    if (ts.isInterfaceDeclaration(node)) {
      const fields = {};
      const openEnums = {};
      for (const member of node.members) {
        // A field typed `never` is another variant's, whose note describes it (see below).
        if (!member.name || member.type?.kind === ts.SyntaxKind.NeverKeyword) continue;
        const text = docText(member);
        if (text) fields[member.name.getText()] = text;
        const values = openEnumValues(member.type, aliases);
        if (values.length > 0) openEnums[member.name.getText()] = values;
      }
      types[node.name.text] = { description: docText(node), fields, openEnums };
      bases[node.name.text] = (node.heritageClauses ?? []).flatMap((clause) =>
        clause.types.map((type) => type.expression.getText()),
      );
    } else if (ts.isTypeAliasDeclaration(node)) {
      const generic = node.type.getText().match(/^(\w+)</)?.[1];
      types[node.name.text] = { description: docText(node), fields: {}, openEnums: {} };
      if (generic) bases[node.name.text] = [generic];
      // A union of variants (`PersonProfileParams | CompanyProfileParams`): one body on the wire,
      // each field noted by the variant it belongs to.
      if (ts.isUnionTypeNode(node.type) && node.type.types.every(ts.isTypeReferenceNode)) {
        bases[node.name.text] = node.type.types.map((type) => type.typeName.getText());
      }
    }
  }
  for (const [name, names] of Object.entries(bases)) {
    for (const base of names) {
      for (const key of ['fields', 'openEnums']) {
        Object.assign(types[name][key], { ...types[base]?.[key], ...types[name][key] });
      }
    }
  }
  return types;
}

/** The request helpers of a resource's requester (src/resources/resource.ts) that name an HTTP method. */
const SENDERS = new Set(['get', 'post', 'put']);

/** Whether `node` calls `this._client.get` (or `post`, `put`) anywhere inside it. */
function callsRequester(node) {
  if (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    SENDERS.has(node.expression.name.text) &&
    node.expression.expression.getText() === 'this._client'
  ) {
    return true;
  }
  return ts.forEachChild(node, callsRequester) ?? false;
}

/** The `@param` notes of a method, by parameter name. */
function paramDocs(member) {
  const docs = {};
  for (const tag of ts.getJSDocTags(member)) {
    if (!ts.isJSDocParameterTag(tag)) continue;
    const text = ts.getTextOfJSDocComment(tag.comment)?.trim();
    if (text) docs[tag.name.getText()] = text;
  }
  return docs;
}

/**
 * Each public method of the resource classes of `dir`, as `namespace.method`: its description,
 * its parameters (name, whether optional, `@param` note) and whether it sends its own call
 * through the requester (`this._client.get`, `post`, `put`): those are the API's operations.
 */
export function resourceMethods(dir) {
  const methods = {};
  for (const file of tsFiles(dir)) {
    for (const node of parse(file).statements) {
      if (!ts.isClassDeclaration(node) || !node.name) continue;
      const namespace = node.name.text.replace(/^./, (c) => c.toLowerCase());
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
        const notes = paramDocs(member);
        methods[`${namespace}.${member.name.text}`] = {
          description: docText(member),
          params: member.parameters.map((param) => ({
            name: param.name.getText(),
            optional: Boolean(param.questionToken || param.initializer),
            description: notes[param.name.getText()],
          })),
          sends: callsRequester(member),
        };
      }
    }
  }
  return methods;
}
