import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = join(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'cli-pack-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the partner-sdk-cli package', () => {
  it('ships the CHANGELOG.md that `changeset version` writes beside it, as the SDK ships its own', async () => {
    // The release writes packages/cli/CHANGELOG.md (docs/releasing.md); npm packs only what
    // `files` names besides package.json, README and LICENSE, so it must be named there.
    for (const entry of ['package.json', 'README.md', 'LICENSE', 'bin'])
      cpSync(join(cli, entry), join(scratch, entry), { recursive: true });
    writeFileSync(join(scratch, 'CHANGELOG.md'), '# partner-sdk-cli\n');
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: scratch,
      timeout: 60_000,
    });
    const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }];
    expect(packed.files.map((file) => file.path)).toContain('CHANGELOG.md');
  });
});
