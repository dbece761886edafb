/**
 * Account-statement exports: spec §2.10 (the export) and §4.4
 * (`POST /financial/account-statement/export-report`).
 *
 * @module
 */

import * as z from 'zod/mini';
import { calendarDay, DEFAULT_TIME_ZONE } from '../shared/timestamp';
import { fieldIssue, optional, paramsObject, readIsoDate, text } from './request-rules';
import {
  type Envelope,
  envelope,
  maybe,
  type OpenEnum,
  openEnum,
  responseObject,
  STRING,
} from './response-fields';

// ---------------------------------------------------------------------------------------------
// Types: the documentation a partner reads (hover, reference). The schemas below are proven to
// infer exactly these types (test/types/schemas-match.test-d.ts).
// ---------------------------------------------------------------------------------------------

/**
 * Where an export stands (spec §2.10, §3): `processing` at request time. The finished and failed
 * values are not shown: the SDK takes a set `url` as finished and `failed` or `error` as a failure
 * (the client's `assumptions.exportStatus.failed` changes that set). Any other string passes.
 */
export type StatementExportState = OpenEnum<'processing'>;

/** A statement export (spec §2.10). `hash` is always there; `status` and `url` may be absent or `null`. */
export interface StatementExport {
  /** Export identifier: poll and download it by this. Always present. Spec §2.10. */
  hash: string;
  /** `processing` at request time; the other values are not shown (see {@link StatementExportState}). Absent or `null` when not sent. Spec §2.10, §3. */
  status?: StatementExportState | null;
  /**
   * Download location of the finished file (often a pre-signed URL on another origin). `null`
   * while processing; set once finished. Spec §2.10.
   */
  url?: string | null;
}

/** Body of the export request's answer (spec §4.4), and of its 409: the envelope around the export. */
export type StatementExportResponse = Envelope<StatementExport>;

/** One end of a date range: a `Date` (its calendar day in `America/Sao_Paulo`) or `'YYYY-MM-DD'`. */
export type DateInput = Date | string;

/**
 * A date range as start and end, each a `Date` or a `'YYYY-MM-DD'` string, start first (an end
 * before the start is sent as given, with a warning: the spec does not forbid it).
 */
export interface DateRange {
  /** First day of the range (inclusive): a `Date` or `'YYYY-MM-DD'`. */
  start: DateInput;
  /** Last day of the range (inclusive), normally not before `start`: a `Date` or `'YYYY-MM-DD'`. */
  end: DateInput;
}

/**
 * `filter.betweenDates` of a statement export: the wire string `'DD/MM/YYYY,DD/MM/YYYY'` (start,
 * end) or a {@link DateRange}. Either way it is sent as the wire string.
 */
export type BetweenDates = string | DateRange;

/** Filters of a statement export (spec §4.4). Other filter keys: not shown. */
export interface StatementExportFilterParams {
  /**
   * The statement's date range: the wire string `'DD/MM/YYYY,DD/MM/YYYY'` (start, end), or
   * `{ start, end }` with `Date`s or `'YYYY-MM-DD'` strings, sent as the wire string. Either way
   * both must be real days; an end before the start is sent as given, with a warning. Spec §4.4.
   */
  betweenDates?: BetweenDates;
}

/**
 * The body of `statements.export` (`POST /financial/account-statement/export-report`, spec §4.4).
 * Neither field is documented as required.
 */
export interface StatementExportParams {
  /** Export format, for example `csv` or `pdf`; the full list is not shown, so any string passes. Spec §4.4. */
  format?: OpenEnum<'csv' | 'pdf'>;
  /** Filters of the export; `betweenDates` is the only one the spec names. Spec §4.4. */
  filter?: StatementExportFilterParams;
}

/**
 * The body of `statements.export`.
 *
 * @deprecated Renamed {@link StatementExportParams}.
 */
export type ExportStatementParams = StatementExportParams;

// ---------------------------------------------------------------------------------------------
// Schemas: the run-time truth (field notes: see the types above)
// ---------------------------------------------------------------------------------------------

/** Schema of {@link StatementExport}: only `hash` is required. */
export const StatementExportSchema = responseObject({
  hash: STRING,
  status: maybe(openEnum(['processing'])),
  url: maybe(STRING),
});

/** Schema of {@link StatementExportResponse}. */
export const StatementExportResponseSchema = envelope(StatementExportSchema);

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

const WIRE_RANGE = /^(\d{2})\/(\d{2})\/(\d{4}),(\d{2})\/(\d{2})\/(\d{4})$/;

type Day = [year: number, month: number, day: number];

const pad = (value: number, width: number) => String(value).padStart(width, '0');
const dayKey = ([year, month, day]: Day) => year * 10_000 + month * 100 + day;
const wireDay = ([year, month, day]: Day) => `${pad(day, 2)}/${pad(month, 2)}/${pad(year, 4)}`;

/**
 * The day one end of a range names: a valid `Date`'s in `timeZone`, in a year the wire's four
 * digits can write (0 to 9999, as a `'YYYY-MM-DD'` string's), or a real `'YYYY-MM-DD'`.
 */
function readEnd(value: unknown, timeZone: string): Day | undefined {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return undefined;
    const day = calendarDay(value, timeZone);
    return day[0] >= 0 && day[0] <= 9999 ? day : undefined;
  }
  return typeof value === 'string' ? readIsoDate(value) : undefined;
}

/** What is wrong with a betweenDates value: the part at fault (none for the whole) and why. */
interface RangeProblem {
  path: ['start' | 'end'] | [];
  message: string;
}

/** Every problem of a betweenDates value, the one reading both of its forms; none when it reads. */
function rangeProblems(value: unknown, timeZone: string): RangeProblem[] {
  const wire = typeof value === 'string' ? WIRE_RANGE.exec(value) : undefined;
  if (wire === null) return [{ path: [], message: 'Must have the format DD/MM/YYYY,DD/MM/YYYY' }];
  if (!wire && (typeof value !== 'object' || value === null)) {
    return [{ path: [], message: "Expected 'DD/MM/YYYY,DD/MM/YYYY' or { start, end }" }];
  }
  // The wire string's days are read as `{ start, end }`'s are; a problem is then the string's own.
  const { start, end } = wire
    ? { start: `${wire[3]}-${wire[2]}-${wire[1]}`, end: `${wire[6]}-${wire[5]}-${wire[4]}` }
    : (value as Record<string, unknown>);
  const first = readEnd(start, timeZone);
  const last = readEnd(end, timeZone);
  const message = wire
    ? 'Not a real calendar day'
    : "Expected a valid Date of the years 0 to 9999 or a real day 'YYYY-MM-DD'";
  const problems: RangeProblem[] = [];
  if (!first) problems.push({ path: wire ? [] : ['start'], message });
  if (!last) problems.push({ path: wire ? [] : ['end'], message });
  return problems;
}

/**
 * Whether a readable range ends before it starts. The spec (§4.4) says "start, end" but does not
 * forbid the other order, so the SDK sends it and warns (`statements.export`): a suspicion, not
 * a rule.
 *
 * @example
 * ```ts
 * isReversedRange('31/01/2025,01/01/2025'); // true
 * isReversedRange({ start: '2025-01-01', end: '2025-01-31' }); // false
 * ```
 */
export function isReversedRange(value: unknown, timeZone = DEFAULT_TIME_ZONE): boolean {
  const wire = typeof value === 'string' ? WIRE_RANGE.exec(value) : undefined;
  if (wire === null || (!wire && (typeof value !== 'object' || value === null))) return false;
  const { start, end } = wire
    ? { start: `${wire[3]}-${wire[2]}-${wire[1]}`, end: `${wire[6]}-${wire[5]}-${wire[4]}` }
    : (value as Record<string, unknown>);
  const first = readEnd(start, timeZone);
  const last = readEnd(end, timeZone);
  return first !== undefined && last !== undefined && dayKey(first) > dayKey(last);
}

/**
 * `filter.betweenDates`: the wire string `'DD/MM/YYYY,DD/MM/YYYY'` (start, end) or `{ start, end }`
 * with `Date`s or `'YYYY-MM-DD'` strings; either way real days (an end before the start is sent:
 * the spec does not forbid it; see {@link isReversedRange}). Send it through
 * {@link toBetweenDates}. One check reads both forms, so each issue names the part at fault (`end`,
 * not "no form matched").
 */
export const BetweenDatesSchema = z.unknown().check(
  z.check((payload) => {
    for (const problem of rangeProblems(payload.value, DEFAULT_TIME_ZONE)) {
      fieldIssue(payload, problem.path, problem.message);
    }
  }),
) as unknown as z.ZodMiniType<BetweenDates, BetweenDates>;

/** Schema of {@link StatementExportFilterParams}. */
export const StatementExportFilterParamsSchema = paramsObject({
  betweenDates: optional(BetweenDatesSchema),
});

/** Schema of {@link StatementExportParams}. */
export const StatementExportParamsSchema = paramsObject({
  format: optional(
    text() as unknown as z.ZodMiniType<OpenEnum<'csv' | 'pdf'>, OpenEnum<'csv' | 'pdf'>>,
  ),
  filter: optional(StatementExportFilterParamsSchema),
});

/**
 * Turns `filter.betweenDates` into the wire string `'DD/MM/YYYY,DD/MM/YYYY'`. A wire string passes
 * through unchanged; a `Date` gives the calendar day it falls on in `timeZone` (default
 * `America/Sao_Paulo`, the platform's zone), so `new Date(2024, 0, 31)` on a São Paulo machine and
 * `'2024-01-31'` both give `31/01/2024`. Validate with {@link StatementExportParamsSchema} first;
 * this throws a `TypeError` for a value it cannot read (a range that ends before it starts is kept
 * as given).
 *
 * @example
 * ```ts
 * toBetweenDates({ start: '2024-01-01', end: '2024-01-31' }); // '01/01/2024,31/01/2024'
 * toBetweenDates('01/01/2024,31/01/2024');                      // '01/01/2024,31/01/2024'
 * ```
 */
export function toBetweenDates(value: BetweenDates, options: { timeZone?: string } = {}): string {
  // `null` from plain JavaScript reads as no options, as `undefined` does.
  const timeZone = options?.timeZone ?? DEFAULT_TIME_ZONE;
  const [problem] = rangeProblems(value, timeZone);
  if (problem) {
    const where = problem.path.length > 0 ? ` (${problem.path[0]})` : '';
    const message = `Invalid betweenDates${where}: ${problem.message}`;
    throw new TypeError(message);
  }
  if (typeof value === 'string') return value;
  return `${wireDay(readEnd(value.start, timeZone) as Day)},${wireDay(readEnd(value.end, timeZone) as Day)}`;
}
