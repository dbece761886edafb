import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * `npm run lint:deps` (part of `npm run lint`) holds the layering of `src/`: run on a copy of the
 * project, it passes as the project is, and fails once a wrong import is planted, naming the rule.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
let copy = '';

beforeEach(() => {
  copy = mkdtempSync(join(tmpdir(), 'partner-sdk-layering-'));
  for (const path of ['src', '.dependency-cruiser.cjs', 'tsconfig.json', 'package.json']) {
    cpSync(join(root, path), join(copy, path), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
});
afterEach(() => rmSync(copy, { recursive: true, force: true }));

/** `lint:deps`'s command, run in the copy: its exit status and what it printed. */
function lintDeps(): { status: number | null; output: string } {
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      'src',
      '--config',
      '.dependency-cruiser.cjs',
    ],
    { cwd: copy, encoding: 'utf8', timeout: 90_000 },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Adds `src/<path>` importing `from`, as a contributor's change would. */
function plant(path: string, from: string): void {
  writeFileSync(join(copy, 'src', path), `export { runAttempts } from '${from}';\n`);
}

describe('the layering rules of src/ (npm run lint:deps)', () => {
  it('pass on the project as it is', () => {
    const { status, output } = lintDeps();
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  }, 120_000);

  it('fail on a bulk module importing a core internal outside its allowed list, naming the rule', () => {
    plant('bulk/planted.ts', '../core/transport/attempts');
    const { status, output } = lintDeps();
    expect(status).not.toBe(0);
    expect(output).toMatch(/bulk-takes-only-its-core-modules[\s\S]*src\/bulk\/planted\.ts/);
  }, 120_000);

  it('fail on a webhooks module importing the transport', () => {
    plant('webhooks/planted.ts', '../core/transport/attempts');
    const { status, output } = lintDeps();
    expect(status).not.toBe(0);
    expect(output).toContain('webhooks-takes-only-its-core-modules');
  }, 120_000);

  it('fail on a bullmq module importing the transport', () => {
    plant('bullmq/planted.ts', '../core/transport/attempts');
    const { status, output } = lintDeps();
    expect(status).not.toBe(0);
    expect(output).toContain('bullmq-takes-only-its-core-modules');
  }, 120_000);
});
