/**
 * Output formats: aligned tables for people, JSON lines and CSV for programs. Nested fields are
 * flattened (`metadata.plan`) in tables and CSV, kept whole in JSON: never dropped.
 *
 * @module
 */

import { columnsOf, padColumns } from './cut-text';

/** How a command writes its results. */
export type Format = 'table' | 'json' | 'csv';

/** One record to print. */
export type Row = Record<string, unknown>;

const FORMATS: readonly Format[] = ['table', 'json', 'csv'];

/** Thrown for an unknown `--format` (the program maps it to a usage error). */
export class FormatError extends Error {
  override name = 'UsageError';
}

/**
 * The format asked for (`--format`, or `--json`), else JSON lines when stdout is not a terminal
 * (a pipe or a file) and tables on a terminal.
 */
export function formatOf(options: { json?: boolean; format?: string }, tty: boolean): Format {
  if (options.format !== undefined) {
    if (!FORMATS.includes(options.format as Format)) {
      throw new FormatError(`--format must be table, json or csv, got "${options.format}"`);
    }
    if (options.json && options.format !== 'json') {
      throw new FormatError(`--json and --format ${options.format} disagree: give one`);
    }
    return options.format as Format;
  }
  if (options.json) return 'json';
  return tty ? 'table' : 'json';
}

/** Every scalar of `value` by its dotted path (`metadata.plan`, `items.0.hash`). */
export function flatten(value: unknown, prefix = '', into: Row = {}): Row {
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value);
    if (entries.length === 0 && prefix) into[prefix] = Array.isArray(value) ? '[]' : '{}';
    for (const [key, inner] of entries) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  } else if (prefix) {
    into[prefix] = value;
  }
  return into;
}

const text = (value: unknown) =>
  value === null || value === undefined
    ? ''
    : value instanceof Date
      ? value.toISOString()
      : String(value);

/**
 * What a terminal acts on, or shows other than it is, rather than prints: the control characters
 * (C0, DEL and C1: `\u009b` is CSI), and the bidirectional and invisible ones, which reorder or
 * hide what an operator reads ("Trojan Source"): the marks (U+200E, U+200F, U+061C), embeddings
 * and overrides (U+202A to U+202E), isolates (U+2066 to U+2069), and the zero-width space,
 * non-joiner, joiner, word joiner and no-break space (U+200B to U+200D, U+2060, U+FEFF).
 */
const CONTROLS = /[\p{Cc}\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/gu;
/** The same, tab and newline aside: a message of several lines keeps them. */
const CONTROLS_BUT_LINES =
  /(?![\t\n])[\p{Cc}\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/gu;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escaped = (char: string) =>
  NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `value` as a terminal should show it: the service's text (a product name, an error message) is
 * data, so an escape sequence in it (a title change, a cleared screen, a carriage return writing
 * over the line) is shown escaped as JSON writes it, never acted on, and so is a character that
 * would reorder the text shown or hide itself (`\u202e`, `\u200b`). With `lines` false a newline
 * and a tab are escaped too, so that a table cell stays on its row.
 */
export function visible(value: string, lines = true): string {
  return value.replace(lines ? CONTROLS_BUT_LINES : CONTROLS, escaped);
}

const cell = (value: unknown) => visible(text(value), false);

/** A `key  value` listing of one object, nested fields flattened. */
export function fields(value: object): string {
  const entries = Object.entries(flatten(value)).map(([k, v]): [string, string] => [
    visible(k, false),
    cell(v),
  ]);
  const width = Math.max(0, ...entries.map(([k]) => columnsOf(k)));
  return entries.map(([k, v]) => `${padColumns(k, width)}  ${v}`).join('\n');
}

/** An aligned text table with a header row. */
export function table(rows: Row[], columns: string[]): string {
  const flat = rows.map((row) => flatten(row));
  const widths = columns.map((column) =>
    Math.max(columnsOf(column), ...flat.map((row) => columnsOf(cell(row[column])))),
  );
  const line = (cells: string[]) =>
    cells
      // Padded to columns, not UTF-16 units: a CJK name takes two columns a character.
      .map((cell, i) => padColumns(cell, widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.toUpperCase())),
    ...flat.map((row) => line(columns.map((c) => cell(row[c])))),
  ].join('\n');
}

/**
 * What a spreadsheet runs as a formula when a cell starts with it (OWASP "CSV Injection"): `=`,
 * `+`, `-` or `@` after any whitespace too, since spreadsheets trim a cell's leading spaces before
 * reading it (` =1+1`, `  @SUM(…)`), and a tab or a carriage return.
 */
const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@])/;
/**
 * A text that is a plain number (`-150`, `-0.5`, ` -150`): a spreadsheet reads it as that number,
 * never runs it.
 */
const PLAIN_NUMBER = /^\s*[+-]?\d+(?:\.\d+)?\s*$/;

/**
 * One CSV field, quoted when it must be (RFC 4180). A text that a spreadsheet would run as a
 * formula (`=HYPERLINK(…)`, `+cmd|…`, ` @SUM(…)`) is written behind a `'`, which makes the cell
 * text, and quoted, as OWASP recommends: the service's strings are data, never a formula. A number
 * stays as it is (a negative amount is a number, not an attack), and so does a text that is a
 * plain number, whitespace around it or not.
 */
function csvField(value: unknown): string {
  const raw = text(value);
  if (typeof value === 'string' && FORMULA_START.test(raw) && !PLAIN_NUMBER.test(raw)) {
    return `"'${raw.replaceAll('"', '""')}"`;
  }
  return /[",\r\n]/.test(raw) ? `"${raw.replaceAll('"', '""')}"` : raw;
}

/** One CSV line of cells. */
export function csvLine(cells: unknown[]): string {
  return cells.map(csvField).join(',');
}

/** Rows as CSV: a header of every flattened field (in order of first appearance), then the rows. */
export function csv(rows: Row[]): string {
  const flat = rows.map((row) => flatten(row));
  const columns = [...new Set(flat.flatMap((row) => Object.keys(row)))];
  return [columns, ...flat.map((row) => columns.map((c) => row[c]))].map(csvLine).join('\n');
}

/** One value in a machine format. */
export function renderValue(format: Exclude<Format, 'table'>, value: object): string {
  return format === 'json' ? JSON.stringify(value) : csv([value as Row]);
}

/**
 * Rows in `format`; for a table, also the fields some row has that the table's columns leave
 * out, so the caller can say so.
 */
export function renderRows(
  format: Format,
  rows: Row[],
  columns: string[],
): { text: string; hidden: string[] } {
  if (format === 'json')
    return { text: rows.map((row) => JSON.stringify(row)).join('\n'), hidden: [] };
  if (format === 'csv') return { text: rows.length ? csv(rows) : '', hidden: [] };
  const shown = new Set(columns);
  const hidden = [
    ...new Set(rows.flatMap((row) => Object.keys(flatten(row)).filter((k) => !shown.has(k)))),
  ];
  return { text: table(rows, columns), hidden };
}
