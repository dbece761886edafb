/**
 * An `@example` block as the file a partner would write around it: the block's own imports and
 * code as they stand, after what its reader is assumed to have, each with a precise type:
 * - the SDK's exports it names without importing them, imported from the entry point that
 *   exports them (the example's own first), as the IDE's auto-import would;
 * - the receiver of the documented member (`store` in `await store.close()` on
 *   `FileJournal.close`), typed as the member's owner;
 * - the other names the examples share (`client`, `seller`, `hashes`, `req`…), from `STAND_INS`:
 *   the SDK's objects with their types, the partner's own from `jsdoc-stand-ins.ts`.
 * A block that is one property of an options object (`onProgress: (p) => …,` on
 * `BulkOptions.onProgress`) is checked inside an object of its owner's type.
 */

import ts from 'typescript';
import { ROOT } from '../helpers/doc-snippets';
import { freeNames, type JsdocExample, receiversOf } from '../helpers/jsdoc-examples';

const OWN = `${ROOT}test/docs/jsdoc-stand-ins`;

/**
 * Names the examples use without declaring them, each with its declaration: a type (declared as
 * a constant of that type) or, for what a partner imports, the import itself.
 */
export const STAND_INS: Record<string, string> = {
  // The SDK's objects, as the guides name them.
  client: "import('partner-sdk').PartnerClient",
  seller: "import('partner-sdk').SellerClient",
  mock: "import('partner-sdk/testing').MockPartnerApi",
  handler: "import('partner-sdk/webhooks').WebhookHandler",
  job: "import('partner-sdk/bulk').BulkJob<string, import('partner-sdk').RefundRequestResult>",
  exported: "import('partner-sdk').StatementExportRequestResult",
  event: "import('partner-sdk/webhooks').WebhookEvent",
  on: "import('partner-sdk/webhooks').WebhookHandlers",
  verify: "NonNullable<import('partner-sdk/webhooks').WebhookHandlerOptions['verify']>",
  // The seller as the partner's own records keep it.
  user: '{ code: string; public_token: string }',
  profile: "Omit<import('partner-sdk').PersonProfileParams, 'avatar'>",
  address: "import('partner-sdk').AddressParams",
  // What the partner has: ids, tokens, settings.
  publicToken: 'string',
  sellerToken: 'string',
  baseUrl: 'string',
  clientId: 'string',
  clientSecret: 'string',
  clientToken: 'string',
  exportHash: 'string',
  key: 'string',
  owner: 'string',
  body: 'string',
  rawBody: 'string',
  hashes: 'string[]',
  productHashes: 'string[]',
  items: "import('partner-sdk/bullmq').RefundJobData[]",
  avatarBytes: 'Uint8Array',
  records: "Map<string, import('partner-sdk/bulk').JournalRecord>",
  signal: 'AbortSignal',
  err: 'unknown',
  error: 'unknown',
  login: '() => Promise<string>',
  logIn: '() => Promise<string>',
  warn: '(message: string) => void',
  sleep: '(ms: number) => Promise<void>',
  store: "import('partner-sdk/bulk').JournalStore",
  // A Fetch-standard request, and the Node and framework objects a receiver is mounted on.
  request: 'Request',
  req: "import('node:http').IncomingMessage",
  res: "import('node:http').ServerResponse",
  app: "import('express').Express",
  http: "import http from 'node:http';",
  // Redis, BullMQ and OpenTelemetry, as their packages make them.
  redis: "import('redis').RedisClientType",
  connection: "import('bullmq').ConnectionOptions",
  queue: "import('bullmq').Queue",
  worker: "import('bullmq').Worker",
  Queue: "import { Queue } from 'bullmq';",
  Worker: "import { Worker } from 'bullmq';",
  tracerProvider: "import('partner-sdk').TracerProviderLike",
  meterProvider: "import('partner-sdk').MeterProviderLike",
  z: "import * as z from 'zod';",
  // Vitest's globals, for the testing kit's examples.
  it: "typeof import('vitest').it",
  expect: "import { expect } from 'vitest';",
  afterAll: "typeof import('vitest').afterAll",
  // The partner's own code.
  db: `import('${OWN}').PartnerDatabase`,
  log: `import('${OWN}').PartnerLog`,
  endSubscription: `import('${OWN}').EndSubscription`,
  syncBankAccount:
    "(event: import('partner-sdk/webhooks').BankAccountUpdatedEvent) => Promise<void>",
  syncAccount: '(bankAccountCode: string) => Promise<void>',
  handle: `import('${OWN}').HandleEvent`,
  saveBatch: "(products: import('partner-sdk').Product[]) => Promise<void>",
  sellerTokens: '{ get(seller: string): Promise<string> }',
};

/**
 * Where one example means something else by a shared name, its own declaration, keyed by the
 * symbol it documents.
 */
export const OVERRIDES: Record<string, Record<string, string>> = {
  // Mounted on Hono, where the others are on Express.
  'WebhookHandler.fetch': { app: "import('hono').Hono" },
};

/**
 * The owner types of members whose owner is generic (with the type arguments the example implies)
 * or stands for a library's class, keyed by the symbol the example documents (or by the owner,
 * for all its members).
 */
const OFFER_UPDATES =
  "import('partner-sdk/bulk').BulkOperation<import('partner-sdk/bulk').OfferUpdateItem, import('partner-sdk').Offer>";
const REFUND_REQUESTS =
  "import('partner-sdk/bulk').BulkOperation<string, import('partner-sdk').RefundRequestResult>";
export const OWNER_TYPES: Record<string, string> = {
  // What the SDK asks of a BullMQ queue: the partner calls it on the Queue itself.
  RateLimitedQueue: "import('bullmq').Queue",
  ProducerQueue: "import('bullmq').Queue",
  CountedQueue: "import('bullmq').Queue",
  BatchQueue: "import('bullmq').Queue",
  'BulkOperation.key': OFFER_UPDATES,
  'BulkOperation.describe': OFFER_UPDATES,
  'BulkOperation.run': REFUND_REQUESTS,
  'BulkOperation.existed': REFUND_REQUESTS,
  'BulkOperation.reconcile': REFUND_REQUESTS,
  'BulkOperation.check': REFUND_REQUESTS,
  'BulkOperation.validate': OFFER_UPDATES,
};

/** A partner's file around `example`, and the line of the file its first line is on. */
export interface PartnerFile {
  text: string;
  /** 0-based line of the file that holds the block's first line. */
  offset: number;
  /** The import lines put before the block: the SDK's names it uses, imported stand-ins. */
  imports: string[];
  /** The stand-ins declared as constants, by name: what a runner binds. */
  assumed: string[];
  /** Those of them that are the receiver of the documented member, each with its owner. */
  receivers: Record<string, string>;
  /** Whether the block is one property of an options object, checked inside one. */
  fragment: boolean;
}

/** Where each public name is exported (the entry points in typedoc's order), value or type. */
export type ExportIndex = Map<string, Map<string, boolean>>;

/** The owner's type, as a partner's file names it, when an entry point exports it. */
function ownerType(example: JsdocExample, index: ExportIndex): string | undefined {
  const owner = example.member?.owner;
  if (!owner) return undefined;
  const given = OWNER_TYPES[example.symbol] ?? OWNER_TYPES[owner];
  if (given) return given;
  const entry = entryOf(owner, example.entry, index);
  return entry ? `import('${entry}').${owner}` : undefined;
}

function entryOf(name: string, first: string, index: ExportIndex): string | undefined {
  if (index.get(first)?.has(name)) return first;
  return [...index].find(([, names]) => names.has(name))?.[0];
}

/** The file a partner would write around `example`. */
export function partnerFile(example: JsdocExample, index: ExportIndex): PartnerFile {
  const owner = ownerType(example, index);
  const receivers = example.member ? receiversOf(example.code, example.member.name) : [];
  const overrides = OVERRIDES[example.symbol] ?? {};
  const fromSdk = new Map<string, string[]>();
  const imports: string[] = [];
  const declared: string[] = [];
  const assumed: string[] = [];
  const typedAsOwner: Record<string, string> = {};
  for (const name of freeNames(example.code)) {
    const entry = entryOf(name, example.entry, index);
    const receiver = owner && receivers.includes(name) ? owner : undefined;
    const own = overrides[name] ?? (entry ? undefined : (receiver ?? STAND_INS[name]));
    if (own && own === receiver && !overrides[name]) typedAsOwner[name] = example.member!.owner;
    if (own?.startsWith('import ')) imports.push(own);
    else if (own) {
      declared.push(`declare const ${name}: ${own};`);
      assumed.push(name);
    } else if (entry) {
      const named = index.get(entry)!.get(name) ? name : `type ${name}`;
      fromSdk.set(entry, [...(fromSdk.get(entry) ?? []), named]);
    }
  }
  for (const [entry, names] of [...fromSdk].reverse()) {
    imports.unshift(`import { ${names.join(', ')} } from '${entry}';`);
  }
  const member = example.member?.name;
  const fragment = member !== undefined && new RegExp(`^\\s*${member}\\s*:`).test(example.code);
  const head = [...imports, ...declared];
  if (fragment) head.push(`const fragment: Partial<${owner ?? 'never'}> = {`);
  const tail = fragment ? ['};'] : [];
  const text = [...head, example.code.trimEnd(), ...tail, 'export {};', ''].join('\n');
  return { text, offset: head.length, imports, assumed, receivers: typedAsOwner, fragment };
}

/** Whether `node` is a value written out: a literal, or an array or object of them. */
function isLiteral(node: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(node)) return isLiteral(node.expression);
  if (ts.isStringLiteralLike(node) || ts.isNumericLiteral(node)) return true;
  if (ts.isPrefixUnaryExpression(node)) return ts.isNumericLiteral(node.operand);
  if (ts.isIdentifier(node)) return node.text === 'undefined';
  const keyword = [
    ts.SyntaxKind.TrueKeyword,
    ts.SyntaxKind.FalseKeyword,
    ts.SyntaxKind.NullKeyword,
  ];
  if (keyword.includes(node.kind)) return true;
  if (ts.isArrayLiteralExpression(node)) return node.elements.every(isLiteral);
  if (ts.isObjectLiteralExpression(node)) {
    return node.properties.every((p) => ts.isPropertyAssignment(p) && isLiteral(p.initializer));
  }
  return false;
}

/**
 * The value a `// …` comment says a statement gives, when it writes one out: the whole comment
 * (`// ['completed', 'failed']`), or what comes before the words that follow it
 * (`// false: "Not a real calendar day"`, `// '2024-05-01T12:00:00.000Z' (São Paulo, UTC-3)`).
 */
export function claimedValue(comment: string): string | undefined {
  const text = comment.replace(/^\/\/\s*/, '').trim();
  // An ellipsis abbreviates the value: the comment shows its shape, not the value itself.
  if (text.includes('…')) return undefined;
  const cuts = [text, ...[': ', ' (', ' — '].map((words) => text.split(words)[0]!.trim())];
  for (const cut of cuts) {
    const parsed = ts.createSourceFile('claim.ts', `(${cut});`, ts.ScriptTarget.Latest, true);
    const statement = parsed.statements[0];
    const problems = (parsed as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics;
    if (problems.length > 0 || parsed.statements.length !== 1 || !statement) continue;
    if (ts.isExpressionStatement(statement) && isLiteral(statement.expression)) return cut;
  }
  return undefined;
}

/** The value a statement's same-line comment claims for it, if it writes one out. */
function claimOf(statement: ts.ExpressionStatement, code: string): string | undefined {
  const comment = ts
    .getTrailingCommentRanges(code, statement.end)
    ?.find((range) => range.kind === ts.SyntaxKind.SingleLineCommentTrivia);
  return comment && claimedValue(code.slice(comment.pos, comment.end));
}

/** What `console.log(value)` logs: the claim is about that value. */
function loggedValue(expression: ts.Expression, source: ts.SourceFile): ts.Expression | undefined {
  if (!ts.isCallExpression(expression) || expression.arguments.length !== 1) return undefined;
  return expression.expression.getText(source) === 'console.log'
    ? expression.arguments[0]
    : undefined;
}

/**
 * The block with each statement that a same-line comment gives a value
 * (`readIsoDate('2025-02-29'); // undefined`, `console.log(API_VERSION); // '1.0.2'`) turned into
 * a check of that value, so that running the example proves what its comment claims; `firstLine`
 * is the line of `file` the block's first line is on.
 */
export function withClaimsChecked(
  code: string,
  file: string,
  firstLine: number,
): { code: string; checks: number } {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, true);
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    const claim = ts.isExpressionStatement(node) ? claimOf(node, code) : undefined;
    if (!claim) {
      ts.forEachChild(node, visit);
      return;
    }
    const statement = node as ts.ExpressionStatement;
    const value = loggedValue(statement.expression, source) ?? statement.expression;
    const line = source.getLineAndCharacterOfPosition(statement.getStart(source)).line;
    const where = JSON.stringify(`${file}:${firstLine + line}`);
    const text = `expect(${value.getText(source)}, ${where}).toEqual(${claim});`;
    edits.push({ start: statement.getStart(source), end: statement.end, text });
  };
  visit(source);
  let result = code;
  for (const edit of edits.reverse()) {
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  }
  return { code: result, checks: edits.length };
}
