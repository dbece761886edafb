/**
 * Where the runtime refuses code from strings (a strict Content-Security-Policy, some edge
 * runtimes), zod's compiler cannot build its fast path: the SDK's response validation must then
 * run zod's interpreted parser and answer the same. Shown in a child process started with
 * `--disallow-code-generation-from-strings`, the way such a runtime refuses `new Function`.
 */

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// npm scripts run the repository's pinned Node (node_modules/.bin comes first on their PATH).
const pinnedNode = `${root}node_modules/.bin/node`;
const node = existsSync(pinnedNode) ? pinnedNode : process.execPath;

describe('response validation where new Function is refused', () => {
  // A child Node that loads the SDK from source takes seconds on a busy machine: a wider bound.
  it('falls back to zod’s interpreted parser: valid bodies pass, a wrong one is refused', async () => {
    const { stdout } = await promisify(execFile)(
      node,
      [
        '--disallow-code-generation-from-strings',
        '--import',
        './examples/support/register.ts',
        'test/core/validation/without-eval.child.ts',
      ],
      { cwd: root, timeout: 50_000 },
    );
    const seen = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(seen.evalRefused).toBe(true);
    expect(seen.fellBack).toBe(true);
    expect(seen.listed).toBe(5);
    expect(seen.retrieved).toBe(true);
    expect(seen.refused).toEqual([
      expect.objectContaining({ path: ['category_id'], code: 'invalid_type' }),
    ]);
  }, 60_000);
});
