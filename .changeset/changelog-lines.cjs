// How `changeset version` words a release's lines: each changeset's summary as one bullet, as the
// rest of CHANGELOG.md is written (no commit hashes; a dependency bump is said once, plainly).
// scripts/release-changelog.ts then folds them into the Keep a Changelog sections.

/** @type {import('@changesets/types').ChangelogFunctions} */
module.exports = {
  async getReleaseLine(changeset) {
    const [first, ...rest] = changeset.summary.trim().split('\n');
    const more = rest.map((line) => (line.trim() ? `  ${line}` : '')).join('\n');
    return `- ${first}${more ? `\n${more}` : ''}`;
  },
  async getDependencyReleaseLine(_changesets, dependencies) {
    if (dependencies.length === 0) return '';
    const names = dependencies.map((dep) => `\`${dep.name}\` ${dep.newVersion}`).join(', ');
    return `- Depends on ${names}.`;
  },
};
