/**
 * Every TypeScript snippet of the guides (`docs/*.md`) and of the README type-checks against the
 * SDK's source, so a renamed option or method breaks this test, not a partner's copy of the
 * snippet. A snippet that continues the prose around it (it uses a `client`, a `seller`, a
 * function of the partner's own) says so in the Markdown, on the line before its fence:
 *
 *     <!-- snippet: assumes client, seller, endSubscription -->
 *
 * and those names are declared for it: the SDK's objects with their types, the partner's own as
 * `any`; `untyped module <package>` (after a `;`) stands for a package the snippet imports that
 * this repository does not install. A snippet without that line must compile as it stands.
 * Every snippet is also run, against the testing kit, by `snippets-run.test.ts`; the Redis
 * guide's set-up snippet besides through a Redis outage by `test/redis/client.test.ts`.
 */

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { documentedFiles, marked, ROOT, type Snippet, snippetsOf } from '../helpers/doc-snippets';

/** The names guides assume that stand for the SDK's own objects, with their types. */
const KNOWN: Record<string, string> = {
  client: "import('partner-sdk').PartnerClient",
  seller: "import('partner-sdk').SellerClient",
  mock: "import('partner-sdk/testing').MockPartnerApi",
  handler: "import('partner-sdk/webhooks').WebhookHandler",
  publicToken: 'string',
  sellerToken: 'string',
  baseUrl: 'string',
  clientId: 'string',
  clientSecret: 'string',
  trx: 'string',
  hash: 'string',
  exportHash: 'string',
  PartnerClient: "typeof import('partner-sdk').PartnerClient",
  createMockPartnerApi: "typeof import('partner-sdk/testing').createMockPartnerApi",
  createWebhookHandler: "typeof import('partner-sdk/webhooks').createWebhookHandler",
  requestRefunds: "typeof import('partner-sdk/bulk').requestRefunds",
  RedisJournalStore: "typeof import('partner-sdk/redis').RedisJournalStore",
  it: "typeof import('vitest').it",
  expect: "typeof import('vitest').expect",
  afterAll: "typeof import('vitest').afterAll",
  beforeAll: "typeof import('vitest').beforeAll",
};

const snippets: Snippet[] = documentedFiles().flatMap(snippetsOf);

/** The snippet as a module of its own, its assumed names declared first. */
function moduleOf(snippet: Snippet): string {
  const declared = marked(snippet).names.map(
    (name) => `declare const ${name}: ${KNOWN[name] ?? 'any'};`,
  );
  return `export {};\n${declared.join('\n')}\n${snippet.code}`;
}

function fileName(snippet: Snippet): string {
  return `${snippet.file.replace(/[/.]/g, '_')}_${snippet.line}.ts`;
}

describe('the snippets of the guides and the README', () => {
  it('are found: every guide with code has its snippets read', () => {
    expect(snippets.length).toBeGreaterThan(40);
    for (const snippet of snippets) marked(snippet);
  });

  it('type-check against the SDK, each as written or with what its marker says it assumes', () => {
    const dir = `${ROOT}.tmp/doc-snippets`;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const where = new Map<string, Snippet>();
    for (const snippet of snippets) {
      const path = `${dir}/${fileName(snippet)}`;
      writeFileSync(path, moduleOf(snippet));
      where.set(path, snippet);
    }
    const modules = snippets.flatMap((snippet) => marked(snippet).modules);
    const shims = `${dir}/untyped-modules.d.ts`;
    writeFileSync(shims, modules.map((name) => `declare module '${name}';`).join('\n'));
    const config = ts.readConfigFile(`${ROOT}tsconfig.json`, ts.sys.readFile).config;
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
    // A callback handed to the partner's own objects (declared `any`) has no type to take its
    // parameters' from; one handed to the SDK does, and is checked as usual.
    const program = ts.createProgram([...where.keys(), shims], {
      ...options,
      noImplicitAny: false,
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file && where.has(diagnostic.file.fileName))
      .map((diagnostic) => {
        const snippet = where.get(diagnostic.file!.fileName)!;
        const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        const inSnippet =
          line - (moduleOf(snippet).split('\n').length - snippet.code.split('\n').length);
        const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
        return `${snippet.file}:${snippet.line + 1 + inSnippet}: ${text}`;
      });
    expect(problems).toEqual([]);
  }, 180_000);
});
