import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { foldRelease } from '../../scripts/release-changelog';

// What `changeset version` leaves at the top of the root CHANGELOG.md (its own wording, with the
// lines of .changeset/changelog-lines.cjs), over the Keep a Changelog file the team writes.
const AFTER_CHANGESET_VERSION = `# Changelog

## 0.2.0

### Minor Changes

- An OpenAPI document of the API,
  served by the testing kit.

### Patch Changes

- A fix.

All notable changes to this project are documented in this file.

## [Unreleased]

### Added
- Something added as it landed.

## [0.1.0] - 2026-01-01

### Added
- The first release.
`;

describe('release changelog (scripts/release-changelog.ts)', () => {
  it("folds changesets' release block into the Unreleased section, which becomes the release, each change said once", () => {
    expect(foldRelease(AFTER_CHANGESET_VERSION, '2026-12-01')).toBe(`# Changelog

All notable changes to this project are documented in this file.

## [Unreleased]

## [0.2.0] - 2026-12-01

### Added
- Something added as it landed.

## [0.1.0] - 2026-01-01

### Added
- The first release.
`);
  });

  it("folds the repository's own changelog with every Unreleased line kept once, under the release", () => {
    const ours = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8');
    // As `changeset version` writes it: its block after the first line.
    const [title, ...rest] = ours.split('\n');
    const versioned = [title, '', '## 0.9.0', '', '### Patch Changes', '', '- A fix.', ...rest];
    const folded = foldRelease(versioned.join('\n'), '2026-12-01');
    const unreleased = ours.slice(ours.indexOf('## [Unreleased]\n') + '## [Unreleased]\n'.length);
    const [, after = ''] = folded.split('## [0.9.0] - 2026-12-01\n');
    expect(after).toBe(unreleased);
    expect(folded).not.toContain('- A fix.');
    expect(folded.startsWith(ours.slice(0, ours.indexOf('## [Unreleased]\n')))).toBe(true);
    expect(folded.match(/^## \[Unreleased\]$/gm)).toHaveLength(1);
  });

  it("keeps the changesets' summaries when the Unreleased section lists nothing, so a release whose lines were forgotten still says what it holds", () => {
    const forgotten = AFTER_CHANGESET_VERSION.replace(
      '### Added\n- Something added as it landed.\n\n',
      '',
    );
    expect(foldRelease(forgotten, '2026-12-01')).toContain(`## [Unreleased]

## [0.2.0] - 2026-12-01

### Summary

- An OpenAPI document of the API,
  served by the testing kit.
- A fix.

## [0.1.0] - 2026-01-01
`);
  });

  it('leaves a changelog without a release block as it is', () => {
    const text = AFTER_CHANGESET_VERSION.replace(/## 0\.2\.0[\s\S]*?(?=All notable)/, '');
    expect(foldRelease(text, '2026-12-01')).toBe(text);
  });

  it('refuses a changelog that has no Unreleased section to fold into', () => {
    const text = AFTER_CHANGESET_VERSION.replace('## [Unreleased]\n', '');
    expect(() => foldRelease(text, '2026-12-01')).toThrow(/Unreleased/);
  });

  it('leaves no bare-version heading for changesets/action, so the workflow asks it for no GitHub release', () => {
    // changesets/action takes a GitHub release's notes from the heading whose text is the bare
    // version (`## 0.2.0`); without one it posts the whole changelog (or fails past GitHub's size
    // limit, silently). The fold renames that heading, so the notes would be the whole file.
    const folded = foldRelease(AFTER_CHANGESET_VERSION, '2026-12-01');
    expect(folded.split('\n').filter((line) => /^#+ 0\.2\.0$/.test(line))).toEqual([]);
    const workflow = readFileSync(
      new URL('../../.github/workflows/release.yml', import.meta.url),
      'utf8',
    );
    const step = /uses: changesets\/action@v1\n\s+with:\n((?:\s{10}.*\n)+)/.exec(workflow);
    expect(step?.[1]).toMatch(/^\s+createGithubReleases: false$/m);
  });
});
