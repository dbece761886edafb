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
  it("folds changesets' release block into the Unreleased section, which becomes the release", () => {
    expect(foldRelease(AFTER_CHANGESET_VERSION, '2026-12-01')).toBe(`# Changelog

All notable changes to this project are documented in this file.

## [Unreleased]

## [0.2.0] - 2026-12-01

### Summary

- An OpenAPI document of the API,
  served by the testing kit.
- A fix.

### Added
- Something added as it landed.

## [0.1.0] - 2026-01-01

### Added
- The first release.
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
});
