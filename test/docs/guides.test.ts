/**
 * The docs site lists every guide in its "Guides" group under a title (typedoc takes both from the
 * guide's front matter; without them the sidebar shows the file name outside the group).
 */

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const typedoc = JSON.parse(readFileSync(new URL('typedoc.json', root), 'utf8')) as {
  projectDocuments: string[];
};

describe('the docs site', () => {
  it('publishes every guide in docs/, each with a title in the Guides group', () => {
    const guides = readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md'));
    expect(typedoc.projectDocuments.map((path) => path.replace(/^docs\//, '')).sort()).toEqual(
      guides.sort(),
    );
    for (const guide of guides) {
      const text = readFileSync(new URL(`docs/${guide}`, root), 'utf8');
      const front = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '';
      expect(front, guide).toMatch(/^title: \S.*$/m);
      expect(front, guide).toMatch(/^group: Guides$/m);
    }
  });

  it("is the README's Documentation list: every guide it builds, linked there by its title", () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const section = readme.slice(readme.indexOf('## Documentation'));
    const listed = [...section.matchAll(/^- \[([^\]]+)\]\(docs\/([^)]+\.md)\)/gm)];
    const guides = readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md'));
    expect(listed.map((link) => link[2]).sort()).toEqual(guides.sort());
    for (const [, title, guide] of listed) {
      const text = readFileSync(new URL(`docs/${guide}`, root), 'utf8');
      expect(text, guide).toMatch(new RegExp(`^title: ${title}$`, 'm'));
    }
  });
});
