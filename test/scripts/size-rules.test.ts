import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * `npm run lint:sizes` (part of `npm run lint`) holds every function of `src/` and the CLI to 60
 * lines, the closures inside it counted, and every file there to 300, the data folders aside: run
 * on a copy of the project, it passes as the project is, and fails once a long factory or a long
 * file is planted, naming it.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
let copy = '';

beforeEach(() => {
  copy = mkdtempSync(join(tmpdir(), 'partner-sdk-sizes-'));
  for (const path of ['src', 'packages/cli/src', 'scripts/check-sizes.mjs']) {
    cpSync(join(root, path), join(copy, path), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
});
afterEach(() => rmSync(copy, { recursive: true, force: true }));

/** `lint:sizes`'s command, run in the copy: its exit status and what it printed. */
function lintSizes(): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [join(copy, 'scripts/check-sizes.mjs')], {
    cwd: copy,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A factory of `lines` lines whose body is mostly one closure, as `createDelivery` was. */
function factory(lines: number): string {
  const statements = Array.from({ length: lines - 4 }, (_, i) => `    total += ${i};`);
  return [
    'export function makeCounter() {',
    '  return (total: number) => {',
    ...statements,
    '  };',
    '}',
  ].join('\n');
}

describe('the size rules of src/ and the CLI (npm run lint:sizes)', () => {
  it('pass on the project as it is', () => {
    const { status, output } = lintSizes();
    expect(output).toContain('every function and file within bounds');
    expect(status).toBe(0);
  }, 90_000);

  it('fail on a factory over 60 lines counting its closure, naming it', () => {
    mkdirSync(join(copy, 'src/planted'), { recursive: true });
    writeFileSync(join(copy, 'src/planted/long.ts'), `${factory(61)}\n`);
    writeFileSync(join(copy, 'src/planted/short.ts'), `${factory(60)}\n`);
    const { status, output } = lintSizes();
    expect(status).not.toBe(0);
    expect(output).toContain('src/planted/long.ts:1: makeCounter is 61 lines (at most 60)');
    expect(output).not.toContain('src/planted/short.ts');
  }, 90_000);

  it('fail on a file over 300 lines anywhere in src/ or the CLI, naming it, the data folders aside', () => {
    const lines = (count: number) =>
      `${Array.from({ length: count }, (_, i) => `export const n${i} = ${i};`).join('\n')}\n`;
    writeFileSync(join(copy, 'src/bulk/planted-long.ts'), lines(301));
    writeFileSync(join(copy, 'packages/cli/src/planted-long.ts'), lines(301));
    writeFileSync(join(copy, 'src/webhooks/planted-short.ts'), lines(300));
    writeFileSync(join(copy, 'src/schemas/planted-data.ts'), lines(400));
    const { status, output } = lintSizes();
    expect(status).not.toBe(0);
    expect(output).toContain('src/bulk/planted-long.ts: 301 lines (a file has at most 300)');
    expect(output).toContain(
      'packages/cli/src/planted-long.ts: 301 lines (a file has at most 300)',
    );
    expect(output).not.toContain('planted-short');
    expect(output).not.toContain('planted-data');
  }, 90_000);
});
