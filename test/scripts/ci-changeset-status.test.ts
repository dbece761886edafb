import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/releasing.md promises that CI fails a pull request that changes a package without adding a
 * changeset: `npx changeset status --since=origin/main`. That command finds where HEAD left
 * `origin/main` (`git merge-base`), which a checkout of the pull request's commit alone does not
 * hold (`actions/checkout` fetches one commit unless told otherwise): the step then fails every
 * pull request, with or without a changeset ("Failed to find where HEAD diverged from
 * origin/main"), and says nothing about changesets.
 */

const workflow = readFileSync(new URL('../../.github/workflows/ci.yml', import.meta.url), 'utf8');

describe('CI reads the pending changesets of a pull request', () => {
  it('runs changeset status against origin/main', () => {
    expect(workflow).toMatch(/run: npx changeset status --since=origin\/main$/m);
  });

  it('checks out the history that holds origin/main for it', () => {
    const checkout = /- uses: actions\/checkout@v\d+\n((?:\s{8,}.*\n)*)/.exec(workflow);
    expect(checkout, 'the checkout step').not.toBeNull();
    expect(checkout?.[1]).toMatch(/^\s+fetch-depth: 0$/m);
  });
});
