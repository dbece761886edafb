// Runs after `changeset version` (`npm run release:version`): changesets bumps package.json, but
// the SDK also carries its version in src/version.ts (sent in the User-Agent, printed by the CLI's
// --version). This writes package.json's new version there, so the release commit agrees with
// itself; without it the release pull request failed its own tests and sent the old version.

import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const VERSION_LINE = /^export const VERSION = '[^']*';$/m;

/** The text of src/version.ts (`source`) with its `VERSION` set to `version`. */
export function withVersion(source: string, version: string): string {
  if (!VERSION_LINE.test(source)) {
    throw new Error("src/version.ts has no `export const VERSION = '…';` line to update");
  }
  return source.replace(VERSION_LINE, `export const VERSION = '${version}';`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = new URL('../src/version.ts', import.meta.url);
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  writeFileSync(file, withVersion(readFileSync(file, 'utf8'), version));
}
