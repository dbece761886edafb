/**
 * Every TypeScript snippet of the guides and the README runs, not only type-checks: each is turned
 * into a module (`snippet-module.ts`) whose assumed names are bound to real objects
 * (`snippet-scope.ts`: a client pointed at the testing kit over loopback HTTP, the seller the kit
 * seeded, a Redis client on a `redis-server` started here, a BullMQ queue with a worker…), with
 * the environment a partner's process would have (PARTNER_API_* at the kit). A snippet fails this
 * test when it throws, or when it does not finish within its bound. What cannot run as written
 * on a test machine is replaced only where its marker says so, with its reason
 * (`<!-- snippet: run with \`3000\` as \`port\`: … -->`); the last test lists what ran, per file.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedFiles, marked, ROOT, type Snippet, snippetsOf } from '../helpers/doc-snippets';
import { type RedisServer, startRedisServer } from '../helpers/redis-server';
import { runSnippet, SNIPPET_BOUND_MS } from './snippet-runner';

const snippets: Snippet[] = documentedFiles().flatMap(snippetsOf);
const dir = `${ROOT}.tmp/doc-snippets-run`;
const ran: Snippet[] = [];

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 30_000);
afterAll(async () => {
  await redis?.close();
});

// In file order even in a shuffled run: the last test is the tally of the ones before it.
describe('every snippet of the guides and the README runs against the testing kit', {
  shuffle: false,
}, () => {
  for (const snippet of snippets) {
    it(
      `${snippet.file}:${snippet.line} (${snippet.section}) runs`,
      async () => {
        await runSnippet(snippet, redis.url, dir);
        ran.push(snippet);
      },
      SNIPPET_BOUND_MS + 15_000,
    );
  }

  it('ran them all; per file:', () => {
    const perFile = new Map<string, number>();
    for (const snippet of ran) perFile.set(snippet.file, (perFile.get(snippet.file) ?? 0) + 1);
    console.info(
      [...perFile].map(([file, count]) => `${file}: ${count} run`).join('\n'),
      '\nreplaced when run:',
      snippets.flatMap((s) =>
        marked(s).substitutions.map((r) => `${s.file}:${s.line} ${r.from} → ${r.to} (${r.why})`),
      ),
    );
    const where = (list: typeof snippets) => list.map((s) => `${s.file}:${s.line}`).sort();
    expect(where(ran)).toEqual(where(snippets));
  });
});
