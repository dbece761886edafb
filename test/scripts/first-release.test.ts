import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/releasing.md: until the first release every changeset is a patch, so the first release
 * stays on the line that package.json, the CLI's range on the SDK and the versioning guide's
 * `^0.1.0` name. A `minor` changeset would make `changeset version` release 0.2.0 first, which
 * those `^0.1.0` ranges do not take.
 */

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

const changelog = read('CHANGELOG.md');
const released = /^## \[\d+\.\d+\.\d+\]/m.test(changelog);
const sdkVersion = JSON.parse(read('package.json')).version as string;
const cli = JSON.parse(read('packages/cli/package.json'));

/** Each pending changeset's bumps, as `file: package → bump`. */
function pendingBumps(): string[] {
  const bumps: string[] = [];
  for (const file of readdirSync(new URL('.changeset/', root))) {
    if (!file.endsWith('.md') || file === 'README.md') continue;
    const front = /^---\n([\s\S]*?)---/.exec(read(`.changeset/${file}`))?.[1] ?? '';
    for (const [, name, bump] of front.matchAll(/^"([^"]+)": (\w+)$/gm)) {
      bumps.push(`${file}: ${name} → ${bump}`);
    }
  }
  return bumps;
}

describe.runIf(!released)('before the first release', () => {
  it('no pending changeset bumps either package past a patch', () => {
    const bumps = pendingBumps();
    expect(bumps.length).toBeGreaterThan(0);
    expect(bumps.filter((bump) => !bump.endsWith('→ patch'))).toEqual([]);
  });

  it('the versioning guide, the CLI and VERSION name the line the first release is on', () => {
    const [major, minor] = sdkVersion.split('.');
    const range = `^${major}.${minor}.0`;
    expect(read('docs/versioning.md')).toContain(`\`${range}\``);
    expect(cli.dependencies['partner-sdk']).toBe(range);
    expect(read('src/version.ts')).toContain(`VERSION = '${sdkVersion}'`);
  });
});
