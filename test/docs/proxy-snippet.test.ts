/**
 * The README's way through an HTTP proxy, run as written (as `snippets-run.test.ts` runs every
 * snippet) with a loopback forward proxy in front of the testing kit: more than running, every
 * call it makes, the login included, reaches the kit through the proxy.
 */

import { describe, expect, it } from 'vitest';
import { ROOT, snippetIn } from '../helpers/doc-snippets';
import { runSnippet, SNIPPET_BOUND_MS } from './snippet-runner';
import { proxiesGiven } from './snippet-scope';

describe("the README's proxy snippet", () => {
  it(
    'sends the login and the call through the proxy, in absolute form',
    async () => {
      const snippet = snippetIn('README.md', 'Through an HTTP proxy');
      // The snippet needs no Redis: the runner is given an address it never dials.
      await runSnippet(snippet, 'redis://127.0.0.1:1', `${ROOT}.tmp/doc-snippets-proxy`);
      const proxy = proxiesGiven.at(-1);
      const seen = proxy?.seen.map(({ method, url }) => `${method} ${new URL(url).pathname}`);
      expect(seen).toEqual(['POST /api/v1/auth', 'GET /api/v1/products']);
      for (const { url } of proxy?.seen ?? []) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    },
    SNIPPET_BOUND_MS + 15_000,
  );
});
