/**
 * The webhooks guide's Cloudflare Worker is the file `npm run test:runtimes` runs inside workerd
 * (`test/package/workerd/receiver-worker.ts`, bundled as one file and split into chunks), to the
 * byte: what a partner copies is what was run there. `snippets-run.test.ts` runs it too, in Node.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, snippetIn } from '../helpers/doc-snippets';

describe('the webhooks guide’s Worker', () => {
  it('is, byte for byte, the Worker test:runtimes runs in workerd', () => {
    const ran = readFileSync(`${ROOT}test/package/workerd/receiver-worker.ts`, 'utf8');
    expect(snippetIn('docs/webhooks.md', 'On Cloudflare Workers').code).toBe(ran);
  });
});
