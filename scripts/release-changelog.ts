// Runs after `changeset version` (`npm run release:version`): changesets writes each package's release at
// the top of its CHANGELOG.md. The root changelog follows Keep a Changelog, with the details under
// `## [Unreleased]` written as changes land; this folds the two together: that section becomes
// the release (`## [x.y.z] - date`) and a fresh, empty `## [Unreleased]` opens above it. Each
// change has both a changeset and a line of its own there, saying the same thing, so the
// changesets' summaries are dropped rather than listed a second time; only a release whose
// section is empty (its lines forgotten) takes them, under `### Summary`, so that nothing is lost.

import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const RELEASE_BLOCK = /^## (\d+\.\d+\.\d+\S*)\n([\s\S]*?)(?=^(?!- | {2}|### |\n)|(?![\s\S]))/m;

/**
 * The changelog `text` with changesets' release block (`## 1.2.0`, `### Minor Changes`, bullets)
 * folded into the `## [Unreleased]` section, dated `date` (YYYY-MM-DD): the section's own lines are
 * the release's, and the block's summaries are kept only when the section has none. Text without
 * such a block comes back as it is.
 */
export function foldRelease(text: string, date: string): string {
  const match = RELEASE_BLOCK.exec(text);
  if (!match) return text;
  const [block, version, body = ''] = match;
  const bullets = body
    .split('\n')
    .filter((line) => line.startsWith('- ') || line.startsWith('  '))
    .join('\n');
  const rest = `${text.slice(0, match.index)}${text.slice(match.index + block.length)}`;
  const unreleased = '## [Unreleased]\n';
  if (!rest.includes(unreleased)) throw new Error('CHANGELOG.md has no "## [Unreleased]" section');
  const tidied = rest.replace(/\n{3,}(?=All notable)/, '\n\n');
  const start = tidied.indexOf(unreleased) + unreleased.length;
  const next = tidied.slice(start).search(/^## /m);
  const lines = tidied.slice(start, next === -1 ? undefined : start + next);
  const summary = /^- /m.test(lines) ? '' : `\n### Summary\n\n${bullets}\n`;
  return tidied.replace(unreleased, `${unreleased}\n## [${version}] - ${date}\n${summary}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = new URL('../CHANGELOG.md', import.meta.url);
  const today = new Date().toISOString().slice(0, 10);
  writeFileSync(file, foldRelease(readFileSync(file, 'utf8'), today));
}
