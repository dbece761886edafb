/**
 * Human output: aligned tables, one line per bulk outcome, a progress bar on stderr.
 *
 * @module
 */

import { APIError, PartnerError, RequestValidationError } from 'partner-sdk';
import type { BulkOutcome, BulkProgress, BulkSummary } from 'partner-sdk/bulk';

type Cell = string | number | boolean | null | undefined;

/** An aligned text table with a header row. */
export function table(rows: Record<string, Cell>[], columns: string[]): string {
  const text = (value: Cell) => (value === null || value === undefined ? '' : String(value));
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => text(row[column]).length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.toUpperCase())),
    ...rows.map((row) => line(columns.map((c) => text(row[c])))),
  ].join('\n');
}

/** A key: value listing of one object's scalar fields. */
export function fields(value: object): string {
  const entries = Object.entries(value).filter(([, v]) => v === null || typeof v !== 'object');
  const width = Math.max(0, ...entries.map(([k]) => k.length));
  return entries.map(([k, v]) => `${k.padEnd(width)}  ${v ?? ''}`).join('\n');
}

/** An error as a JSON-friendly object (never a secret: SDK messages are redacted). */
export function errorJson(error: unknown): Record<string, unknown> {
  if (error instanceof RequestValidationError) {
    return { name: error.name, message: error.message, issues: error.issues };
  }
  if (error instanceof APIError) {
    return { name: error.name, message: error.message, status: error.status };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** The error's message for people. */
export function errorText(error: unknown): string {
  if (error instanceof PartnerError || error instanceof Error) return error.message;
  return String(error);
}

/** A bulk outcome as one JSON line's object. */
export function outcomeJson(
  outcome: BulkOutcome<unknown, unknown>,
  result: (value: unknown) => unknown = (value) => value,
): Record<string, unknown> {
  const { status, key } = outcome;
  switch (outcome.status) {
    case 'succeeded':
      return { key, status, reconciled: outcome.reconciled, result: result(outcome.result) };
    case 'existing':
      return { key, status, result: result(outcome.result) };
    case 'failed':
      return { key, status, inDoubt: outcome.inDoubt, error: errorJson(outcome.error) };
    case 'skipped':
      return { key, status, previous: outcome.previous.state };
    default:
      return { key, status };
  }
}

const MARKS: Record<string, string> = {
  succeeded: 'ok',
  existing: 'ok',
  valid: 'ok',
  skipped: '--',
  duplicate: '--',
  failed: 'FAIL',
  interrupted: '..',
};

/** A bulk outcome as one human line. */
export function outcomeText(
  outcome: BulkOutcome<unknown, unknown>,
  describe: (value: unknown) => string,
): string {
  const mark = (MARKS[outcome.status] ?? '').padEnd(4);
  const detail =
    outcome.status === 'succeeded'
      ? `${describe(outcome.result)}${outcome.reconciled ? ' (found made by an earlier run)' : ''}`
      : outcome.status === 'existing'
        ? `already there: ${describe(outcome.result)}`
        : outcome.status === 'failed'
          ? `${errorText(outcome.error)}${outcome.inDoubt ? ' (may have reached the service)' : ''}`
          : outcome.status === 'skipped'
            ? `done by an earlier run (${outcome.previous.state})`
            : outcome.status === 'interrupted'
              ? 'interrupted: resume with the same --journal'
              : outcome.status === 'duplicate'
                ? 'duplicate of an earlier item of this job: not sent'
                : 'valid (dry run: nothing sent)';
  return `${mark} ${outcome.key}  ${detail}`;
}

/** The summary of a bulk job for people. */
export function summaryText(summary: BulkSummary): string {
  const statuses = [
    'succeeded',
    'existing',
    'skipped',
    'duplicate',
    'failed',
    'interrupted',
    'valid',
  ] as const;
  const parts = statuses.filter((k) => summary[k] > 0).map((k) => `${summary[k]} ${k}`);
  const seconds = (summary.elapsedMs / 1000).toFixed(1);
  const throttled = summary.throttled ? `, ${summary.throttled} throttled (429/503)` : '';
  return `${summary.total} items: ${parts.join(', ') || 'nothing to do'} in ${seconds} s${throttled}${summary.aborted ? ' (stopped before the end)' : ''}`;
}

const seconds = (ms: number | undefined) =>
  ms === undefined
    ? '?'
    : ms < 60_000
      ? `${Math.ceil(ms / 1000)} s`
      : `${Math.ceil(ms / 60_000)} min`;

/** A one-line progress bar, redrawn in place on a terminal's stderr. */
export class ProgressBar {
  readonly #stream: NodeJS.WritableStream & { columns?: number };
  #drawn = false;

  constructor(stream: NodeJS.WritableStream & { columns?: number }) {
    this.#stream = stream;
  }

  update(p: BulkProgress): void {
    const width = 24;
    const ratio = p.total ? Math.min(1, p.done / p.total) : undefined;
    const filled = ratio === undefined ? 0 : Math.round(ratio * width);
    const bar = ratio === undefined ? '' : `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] `;
    const of = p.total === undefined ? '' : `/${p.total}`;
    const text =
      `${bar}${p.done}${of} done · ${p.failed} failed · ${p.inFlight} in flight · ` +
      `${p.ratePerSecond.toFixed(0)}/s · ${seconds(p.etaMs)} left`;
    this.#stream.write(`\r${text.slice(0, (this.#stream.columns ?? 100) - 1)}\x1b[K`);
    this.#drawn = true;
  }

  /** Clears the bar before other output. */
  clear(): void {
    if (this.#drawn) this.#stream.write('\r\x1b[K');
    this.#drawn = false;
  }
}
