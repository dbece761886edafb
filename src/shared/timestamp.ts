/**
 * Reading the service's timestamps. The SDK keeps them as the strings the service sent (lossless);
 * `parseTimestamp` turns one into a `Date` on demand.
 *
 * The spec names three formats (conventions): ISO8601 with `Z` or a UTC offset (microseconds seen
 * in events and fee-tier history), `YYYY-MM-DD HH:mm:ss` and `DD/MM/YYYY HH:mm:ss`. The last two
 * carry no offset; the spec does not say in which zone they are, so they are read in
 * {@link DEFAULT_TIME_ZONE} (an assumption: the platform sells in BRL) unless the
 * caller names another.
 *
 * @module
 */

/** The zone assumed for timestamps without an offset: the platform sells in Brazil (an assumption). */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/**
 * Options of {@link parseTimestamp}.
 *
 * @inline
 */
export interface ParseTimestampOptions {
  /**
   * IANA time zone in which a timestamp without an offset is read. Default `America/Sao_Paulo`.
   * Ignored when the value carries `Z` or an offset.
   */
  timeZone?: string;
}

// YYYY-MM-DD, then `T` or a space, the time with optional seconds and fraction, then `Z` (group 8)
// or an offset: sign, hours and optional minutes (groups 9 to 11).
const ISO_LIKE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:(Z)|([+-])(\d{2}):?(\d{2})?)?$/i;
// DD/MM/YYYY HH:mm:ss (seconds and fraction optional).
const BRAZILIAN = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?$/;

/**
 * Reads a timestamp the service sent into a `Date`. Accepts the three formats of the spec:
 * ISO8601 with `Z` or an offset (fractions of any length, e.g. microseconds, are cut to
 * milliseconds), `YYYY-MM-DD HH:mm:ss` and `DD/MM/YYYY HH:mm:ss`. A value without an offset is read
 * as wall-clock time in `timeZone` (default `America/Sao_Paulo`), with that zone's offset at that
 * moment, including historical daylight-saving rules. A wall time skipped by a daylight-saving
 * change is moved forward by the gap; a repeated one takes its earlier instant.
 *
 * @throws {TypeError} when the value is not a string in one of those formats or names an
 *   impossible date or time (the message quotes the value).
 * @throws {RangeError} when `timeZone` is not a time zone the runtime knows.
 *
 * @example
 * ```ts
 * parseTimestamp('2024-05-01T12:00:00.123456Z').toISOString(); // '2024-05-01T12:00:00.123Z'
 * parseTimestamp('2024-05-01 09:00:00').toISOString();         // '2024-05-01T12:00:00.000Z' (São Paulo, UTC-3)
 * parseTimestamp('01/05/2024 09:00:00', { timeZone: 'UTC' }).toISOString(); // '2024-05-01T09:00:00.000Z'
 * ```
 */
export function parseTimestamp(value: string, options: ParseTimestampOptions = {}): Date {
  // `null` from plain JavaScript reads as no options, as `undefined` does.
  return readTimestamp(value, options?.timeZone ?? DEFAULT_TIME_ZONE, 'earlier');
}

/**
 * {@link parseTimestamp}, choosing which instant a wall time repeated by a daylight-saving change
 * names: the search for a lost refund takes the `later`, so that a refund made in the hour's second
 * pass is not read as an hour older and missed.
 *
 * @internal
 */
export function readTimestamp(
  value: string,
  timeZone: string,
  repeated: 'earlier' | 'later',
): Date {
  if (typeof value !== 'string') {
    // Named by its type only: a value that is not a string may not serialise (a BigInt, a cycle).
    throw new TypeError(
      `Invalid timestamp: expected a string, got ${value === null ? 'null' : typeof value}`,
    );
  }
  const text = value.trim();
  const iso = ISO_LIKE.exec(text);
  const brazilian = iso ? null : BRAZILIAN.exec(text);
  const fields = iso ?? brazilian;
  if (!fields) {
    throw invalidTimestamp(value, 'expected ISO8601, YYYY-MM-DD HH:mm:ss or DD/MM/YYYY HH:mm:ss');
  }
  // The date comes year first in the ISO form, day first in the Brazilian one.
  const date = iso ? fields.slice(1, 4) : fields.slice(1, 4).reverse();
  const [year, month, day] = date.map(Number) as [number, number, number];
  const [hour, minute, second] = [Number(fields[4]), Number(fields[5]), Number(fields[6] ?? 0)];
  const millisecond = Number((fields[7] ?? '').slice(0, 3).padEnd(3, '0'));
  // The wall time read as if it were UTC.
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  wall.setUTCHours(hour, minute, second, millisecond);
  if (!isRealDay(year, month, day) || hour > 23 || minute > 59 || second > 59) {
    throw invalidTimestamp(value, 'no such date or time');
  }
  if (iso?.[8]) return wall;
  if (iso?.[9]) {
    const [hours, minutes] = [Number(iso[10]), Number(iso[11] ?? 0)];
    if (hours > 23 || minutes > 59) throw invalidTimestamp(value, 'bad UTC offset');
    const east = (hours * 60 + minutes) * 60_000;
    return new Date(wall.getTime() - (iso[9] === '-' ? -east : east));
  }
  return new Date(zonedWallToInstant(wall.getTime(), timeZone, repeated));
}

/**
 * The calendar day an instant falls on in `timeZone`, as `[year, month, day]`. Used where the wire
 * wants a date and the caller gave a `Date`.
 *
 * @example
 * ```ts
 * calendarDay(new Date('2024-05-01T02:00:00Z'), 'America/Sao_Paulo'); // [2024, 4, 30]
 * ```
 */
export function calendarDay(
  date: Date,
  timeZone: string = DEFAULT_TIME_ZONE,
): [number, number, number] {
  const local = new Date(date.getTime() + offsetAt(date.getTime(), timeZone));
  return [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()];
}

/**
 * Whether `year`-`month`-`day` names a day of the calendar (no 31 April, no 29 February 2023): a
 * date that does not exist rolls over into another and shows it.
 *
 * @internal
 */
export function isRealDay(year: number, month: number, day: number): boolean {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** The `TypeError` for a text that is no timestamp, quoting it. */
function invalidTimestamp(text: string, reason: string): TypeError {
  return new TypeError(`Invalid timestamp ${JSON.stringify(text)}: ${reason}`);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Milliseconds `timeZone` is ahead of UTC at an instant, read from its `GMT-03:00` offset name. */
function offsetAt(instant: number, timeZone: string): number {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    formatters.set(timeZone, formatter);
  }
  const name = formatter.formatToParts(instant).find((part) => part.type === 'timeZoneName');
  // `GMT` alone at UTC; seconds appear only in historical local mean times (`GMT-03:06:28`).
  const match = /([+-])(\d{2}):(\d{2})(?::(\d{2}))?/.exec(name?.value ?? '');
  if (!match) return 0;
  const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60 + Number(match[4] ?? 0);
  return (match[1] === '-' ? -seconds : seconds) * 1000;
}

const DAY_MS = 86_400_000;

/**
 * The instant at which the wall time (given as if UTC) is read in `timeZone`. Offsets a day before
 * and after bracket any single transition: each yields a candidate, kept when the zone really shows
 * that wall time then. Two candidates (a repeated hour): the one `repeated` names. None (a skipped
 * hour): the offset from before the change, which moves the time forward by the gap.
 */
function zonedWallToInstant(
  wallAsUtc: number,
  timeZone: string,
  repeated: 'earlier' | 'later',
): number {
  const before = offsetAt(wallAsUtc - DAY_MS, timeZone);
  const after = offsetAt(wallAsUtc + DAY_MS, timeZone);
  const candidates = [wallAsUtc - before, wallAsUtc - after].filter(
    (instant) => instant + offsetAt(instant, timeZone) === wallAsUtc,
  );
  if (candidates.length > 0) {
    return repeated === 'earlier' ? Math.min(...candidates) : Math.max(...candidates);
  }
  // Neither bracketing offset fits (more than one change within the two days): ask the zone once more.
  const guess = wallAsUtc - offsetAt(wallAsUtc, timeZone);
  return guess + offsetAt(guess, timeZone) === wallAsUtc ? guess : wallAsUtc - before;
}
