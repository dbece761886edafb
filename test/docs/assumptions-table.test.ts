/**
 * The assumptions guide's table, read as a partner reads it: every field of the `assumptions`
 * option has a row (and a row of the README's summary), each row's option exists, and each
 * row's example, given to a client as written, is accepted and changes the option the row names.
 * The guide's fenced snippet runs in `snippets-run.test.ts`; this covers the table's examples.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_ASSUMPTIONS, PartnerClient } from 'partner-sdk';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const guide = readFileSync(new URL('docs/assumptions.md', root), 'utf8');
const readme = readFileSync(new URL('README.md', root), 'utf8');

/** The cells of each body row of the first table after `heading`. */
function tableAfter(text: string, heading: string): string[][] {
  const from = text.indexOf(heading);
  const lines = text.slice(from).split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The `assumptions.x.y` options a cell names in code spans. */
function optionsIn(cell: string): string[] {
  return [...cell.matchAll(/`assumptions\.([\w.]+)`/g)].map((m) => m[1]!);
}

/** The value of DEFAULT_ASSUMPTIONS at a dot path, or undefined. */
function defaultAt(path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) =>
        value !== null && typeof value === 'object' && Object.hasOwn(value, key)
          ? (value as Record<string, unknown>)[key]
          : undefined,
      DEFAULT_ASSUMPTIONS,
    );
}

/** Every settable field of the option, as dot paths (`login.body` an object of two fields). */
function fieldsOf(value: object, at = ''): string[] {
  return Object.entries(value).flatMap(([key, inner]) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? fieldsOf(inner, `${at}${key}.`)
      : [`${at}${key}`],
  );
}

const rows = tableAfter(guide, '## The table');
const optionRows = rows.filter((cells) => optionsIn(cells[3] ?? '').length > 0);

describe('the assumptions guide’s table', () => {
  it('has a row naming each field of the assumptions option', () => {
    const named = rows.flatMap((cells) => optionsIn(cells[3] ?? ''));
    const missing = fieldsOf(DEFAULT_ASSUMPTIONS).filter(
      (field) => !named.some((option) => field === option || field.startsWith(`${option}.`)),
    );
    expect(missing).toEqual([]);
  });

  it.each(optionRows.map((cells) => [cells[0]!, cells]))(
    '%s: its options exist, and its example, given to a client, changes the first of them',
    (_, cells) => {
      const options = optionsIn(cells[3]!);
      for (const option of options) expect(defaultAt(option), option).not.toBeUndefined();
      const example = /^`(.+)`$/.exec(cells[4]!)?.[1];
      expect(example, `the example of ${cells[0]}`).toBeDefined();
      const assumptions = new Function(`return (${example});`)();
      const make = () =>
        new PartnerClient({
          baseUrl: 'https://partner.example.com/api/v1',
          clientToken: 'tok-123456',
          logLevel: 'off',
          assumptions,
        });
      expect(make).not.toThrow();
      const set = fieldsOf(assumptions);
      const first = options[0]!;
      const changed = set.filter((field) => field === first || field.startsWith(`${first}.`));
      expect(changed.length, `${example} sets ${first}`).toBeGreaterThan(0);
      for (const field of changed) {
        const value = field.split('.').reduce((v, k) => v[k], assumptions);
        expect(value, field).not.toEqual(defaultAt(field));
      }
    },
  );
});

describe('the README’s summary of the assumptions', () => {
  it('names only options that exist, and every field of the option', () => {
    const summary = tableAfter(readme, '## Assumptions where the spec is silent');
    const named = summary.flatMap((cells) =>
      [...(cells[2] ?? '').matchAll(/`([\w.]+)`/g)].map((m) => m[1]!),
    );
    for (const option of named) expect(defaultAt(option), option).not.toBeUndefined();
    const missing = fieldsOf(DEFAULT_ASSUMPTIONS).filter(
      (field) => !named.some((option) => field === option || field.startsWith(`${option}.`)),
    );
    expect(missing).toEqual([]);
  });
});
