/**
 * Every `§N` or `§N.M` the code and docs cite names a part the spec has: a `###` heading (`§4.2`,
 * "Request refund") or, in a section without subheadings, an item of its numbered list (`§5.6`,
 * item 6 of "5. Authentication"); a "rule N" after a section is an item of that section's rules.
 * A citation of another document (`RFC 9110 §9.3.2`, `DESIGN §4`) is that document's and not read here.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);

/**
 * The spec's parts, copied from the spec itself (`partner-api.md`, the interface description
 * 1.0.2 the README's "Assumptions where the spec is silent" names): the repository keeps no copy of
 * it, and CI runs on a clean clone. Its top-level sections are 1 to 9; the titles are the spec's.
 */
const SPEC_PARTS: Record<string, string> = {
  '2.1': 'User (response of profile update)',
  '2.2': 'Address',
  '2.3': 'Phone',
  '2.4': 'Bank account',
  '2.5': 'Product',
  '2.6': 'Offer (response of offer update)',
  '2.7': 'Offer subscription settings',
  '2.8': 'Offer freight (physical products)',
  '2.9': 'Refund',
  '2.10': 'Statement export',
  '2.11': 'Anticipation',
  '2.12': 'Fee-tier history record',
  '2.13': 'Pagination objects',
  '4.1': 'Update user',
  '4.2': 'Request refund',
  '4.3': 'Read refunds of a transaction',
  '4.4': 'Request statement export',
  '4.5': 'Update bank account',
  '4.6': 'Update offer',
  '4.7': 'Confirm anticipation',
  '4.8': 'List anticipations',
  '4.9': 'Read product',
  '4.10': 'List products',
  '4.11': 'Fee-tier history',
  '4.12': 'Other operations',
  // "5. Authentication" has no subheadings: its numbered list.
  '5.1': 'a client is registered by the operator (identifier and secret)',
  '5.2': 'the client logs in at /auth and receives a client_token',
  '5.3': 'every other request sends X-Api-Client-Token',
  '5.4': 'users are created; each gets a public_token',
  '5.5': 'endpoints outside the public set also need Authorization: Bearer',
  '5.6': 'origin restriction: registered IP addresses and domains only',
  '6.1': 'subscription_ended',
  '6.2': 'bank_account_updated and bank_account_deleted',
};
const SECTIONS = new Set(['1', '2', '3', '4', '5', '6', '7', '8', '9', ...Object.keys(SPEC_PARTS)]);
/** How many "Rules" items the sections with such a list number. */
const RULES: Record<string, number> = { '4.1': 2, '4.6': 4 };

const SCANNED = [
  'README.md',
  'SECURITY.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  'docs',
  'src',
  'scripts',
  'examples',
  'bench',
  'packages/cli/README.md',
  'packages/cli/src',
];
const SKIPPED = new Set(['node_modules', 'dist', 'docs-site', 'results']);

function filesUnder(path: string): string[] {
  const url = new URL(path, root);
  if (!statSync(url).isDirectory()) return [path];
  return readdirSync(url, { withFileTypes: true })
    .filter((entry) => !SKIPPED.has(entry.name))
    .flatMap((entry) => filesUnder(`${path}/${entry.name}`))
    .filter((file) => /\.(ts|mts|mjs|js|md|json)$/.test(file));
}

type Citation = { where: string; cited: string; text: string };

/** Each section a file cites: both ends of a range (`§4.1–4.11`), a rule as `4.6 rule 3`. */
function citationsIn(file: string): Citation[] {
  const found: Citation[] = [];
  const source = readFileSync(new URL(file, root), 'utf8');
  // Another document's sections (an RFC's, DESIGN's) are that document's, across a line break too.
  const citation =
    /((?:RFC \d+|DESIGN)(?:\s|\*|\/)*)?§(\d+(?:\.\d+)*)(?:[–-]§?(\d+(?:\.\d+)*))?(?: rules? (\d+)(?:(?:[–-]| and )(\d+))?)?/g;
  for (const match of source.matchAll(citation)) {
    const [text, other, first, last, rule, lastRule] = match;
    if (other) continue;
    const where = `${file}:${source.slice(0, match.index).split('\n').length}`;
    for (const cited of [first, last]) if (cited) found.push({ where, cited, text });
    for (const n of [rule, lastRule])
      if (n) found.push({ where, cited: `${first} rule ${n}`, text });
  }
  return found;
}

function exists(cited: string): boolean {
  const rule = /^(.+) rule (\d+)$/.exec(cited);
  if (!rule) return SECTIONS.has(cited);
  const count = RULES[rule[1] as string] ?? 0;
  return Number(rule[2]) >= 1 && Number(rule[2]) <= count;
}

describe('citations of the spec', () => {
  const citations = SCANNED.flatMap(filesUnder).flatMap(citationsIn);

  it('are read from the code and the docs (the reader finds them)', () => {
    // The docs, the schemas and the generated OpenAPI document each cite the spec at length.
    expect(citations.length).toBeGreaterThan(1000);
    expect(citations.some((c) => c.where.startsWith('docs/openapi.json'))).toBe(true);
    expect(citations.some((c) => c.cited === '4.6 rule 3')).toBe(true);
  });

  it('name only sections, subsections and list items the spec has', () => {
    const wrong = citations.filter((c) => !exists(c.cited));
    expect(wrong.map((c) => `${c.where}: ${c.text}`)).toEqual([]);
  });

  it("are not DESIGN's in what a partner or a maintainer reads: that document is not in the repository", () => {
    const read = [
      'README.md',
      'SECURITY.md',
      'packages/cli/README.md',
      'docs',
      'src',
      'scripts',
      'tsup.config.ts',
      'packages/cli/src',
    ].flatMap(filesUnder);
    const design = read.filter((file) =>
      /\bDESIGN\b/.test(readFileSync(new URL(file, root), 'utf8')),
    );
    expect(design).toEqual([]);
  });

  it('would catch a section the spec does not have', () => {
    for (const cited of ['4.13', '5.7', '2.14', '10', '6.3', '4.6 rule 5', '4.2 rule 1']) {
      expect(exists(cited), cited).toBe(false);
    }
    for (const cited of ['9', '4.12', '5.6', '2.13', '4.1 rule 2']) {
      expect(exists(cited), cited).toBe(true);
    }
  });
});
