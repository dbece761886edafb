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

describe("the README's runtime table", () => {
  it('names, per runtime, the version npm run test:runtimes runs (Node 24: the pinned dev-time Node)', () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const script = readFileSync(new URL('scripts/test-runtimes.mjs', root), 'utf8');
    const pinned = (name: string) =>
      new RegExp(`^const ${name} = '([^']+)';$`, 'm').exec(script)?.[1];
    const devNode = JSON.parse(
      readFileSync(new URL('node_modules/node/package.json', root), 'utf8'),
    ) as { version: string };
    const testedWith = (runtime: string) =>
      new RegExp(`^\\| ${runtime}[^|]* \\|[^|]*\\|[^|]*\\| ([^|]+) \\|$`, 'm').exec(readme)?.[1];
    const expected = {
      node22: pinned('NODE_22'),
      node24: devNode.version,
      node26: pinned('NODE_26'),
      bun: pinned('BUN'),
      deno: pinned('DENO'),
      workers: pinned('MINIFLARE'),
    };
    // Each read found its version: two misses must not pass as equal.
    expect(Object.values(expected).every((version) => /^\d+\.\d+\.\d+$/.test(version ?? ''))).toBe(
      true,
    );
    expect({
      node22: testedWith('Node 22'),
      node24: testedWith('Node 24'),
      node26: testedWith('Node 26'),
      bun: testedWith('Bun'),
      deno: testedWith('Deno'),
      workers: testedWith('Cloudflare Workers')?.match(/\(miniflare ([^)]+)\)/)?.[1],
    }).toEqual(expected);
  });
});
