import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { withVersion } from '../../scripts/release-version';

const VERSION_FILE = readFileSync(new URL('../../src/version.ts', import.meta.url), 'utf8');

describe('scripts/release-version.ts (run by npm run release:version)', () => {
  it("writes package.json's new version into src/version.ts, and only there", () => {
    const bumped = withVersion(VERSION_FILE, '0.2.0');
    expect(bumped).toContain("export const VERSION = '0.2.0';");
    // The interface version the SDK follows (spec §9) is not the package's: it stays.
    expect(bumped).toContain("export const API_VERSION = '1.0.2';");
    expect(bumped.replace("'0.2.0'", `'${packageJson.version}'`)).toBe(VERSION_FILE);
  });

  it('refuses a version file without its VERSION line rather than releasing a stale one', () => {
    expect(() => withVersion('export const API_VERSION = "1.0.2";\n', '0.2.0')).toThrow(/VERSION/);
  });

  it('runs after changeset version bumps package.json, before the lockfile is written', () => {
    const steps = packageJson.scripts['release:version'].split(' && ');
    const at = (command: string) => steps.findIndex((step) => step.startsWith(command));
    expect(at('changeset version')).toBe(0);
    expect(at('node scripts/release-version.ts')).toBeGreaterThan(0);
    expect(at('node scripts/release-version.ts')).toBeLessThan(at('npm install'));
  });
});
